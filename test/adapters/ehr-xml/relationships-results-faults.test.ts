import { describe, expect, it } from 'vitest';
import { mapFault, mapRelationships, mapResultRecord } from '../../../src/adapters/ehr-xml/index.js';
import { edit, example } from './fixtures.js';

describe('Relationships', () => {
  const base = example('relationships.xml');

  it('maps every row with attribute values as strings, expired rows kept, validTo absent when open-ended', () => {
    expect(mapRelationships(base)).toEqual({
      actor: '198112189876',
      relationships: [
        { patient: '201701012393', type: 'guardian', validFrom: '20170101', validTo: '20341231' },
        { patient: '200404122384', type: 'guardian', validFrom: '20040412', validTo: '20220411' },
        { patient: '191212121212', type: 'power-of-attorney', validFrom: '20240115', validTo: '20340114' },
        { patient: '194608632396', type: 'partner', validFrom: '20230901' },
      ],
    });
    expect(mapRelationships(base).relationships[3]).not.toHaveProperty('validTo');
  });

  it('drops a row of an unknown type', () => {
    const xml = edit(base, 'type="partner"', 'type="neighbour"');
    expect(mapRelationships(xml).relationships.map((r) => r.patient)).toEqual(['201701012393', '200404122384', '191212121212']);
  });

  it('answers an actor without relationships with none', () => {
    expect(mapRelationships('<Relationships xmlns="urn:example:ehr:relationship:1" actor="198112189876"/>'))
      .toEqual({ actor: '198112189876', relationships: [] });
  });

  it('refuses dates that are not 8-digit dates, an empty validTo included', () => {
    expect(() => mapRelationships(edit(base, 'validTo="20341231"', 'validTo="2034-12-31"'))).toThrow('bad validTo');
    expect(() => mapRelationships(edit(base, 'validTo="20341231"', 'validTo=""'))).toThrow('bad validTo');
    expect(() => mapRelationships(edit(base, 'validFrom="20230901"', 'validFrom="20230931"'))).toThrow('bad validFrom');
  });

  it('refuses a document without actor or a row without patient', () => {
    expect(() => mapRelationships(edit(base, ' actor="198112189876"', ''))).toThrow('missing actor');
    expect(() => mapRelationships(edit(base, 'patient="194608632396" ', ''))).toThrow('missing patient');
  });
});

describe('ResultRecord', () => {
  const base = example('result-ok.xml');

  it('reads the result code, the reason code from Any and the comment', () => {
    expect(mapResultRecord(base)).toEqual({
      resultCode: 'OK', reasonCode: 'ARRIVAL_REGISTERED', comment: 'Ankomst registrerad för kontakt 00012345',
    });
  });

  it('gives an undefined reason when Any carries none', () => {
    const xml = '<ResultRecord xmlns="urn:example:ehr:result:1"><ResultCode>ERROR</ResultCode></ResultRecord>';
    expect(mapResultRecord(xml)).toEqual({ resultCode: 'ERROR', reasonCode: undefined });
  });

  it('refuses an unknown result code and a wrong root', () => {
    expect(() => mapResultRecord(edit(base, '<ResultCode>OK</ResultCode>', '<ResultCode>Ok</ResultCode>'))).toThrow('bad ResultCode');
    expect(() => mapResultRecord(example('fault.xml'))).toThrow('unexpected root element');
  });
});

describe('Fault', () => {
  it('gives the code and never the message', () => {
    const fault = mapFault(example('fault.xml'));
    expect(fault).toEqual({ code: 'PATIENT_NOT_FOUND' });
    expect(JSON.stringify(fault)).not.toContain('195507142478');
  });

  it('refuses a fault without code', () => {
    expect(() => mapFault('<Fault xmlns="urn:example:ehr:fault:1"><Message>x</Message></Fault>')).toThrow('missing Code');
  });
});

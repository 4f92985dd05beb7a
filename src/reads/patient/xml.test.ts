import { describe, expect, it } from 'vitest';
import { edit, example, mapExample, PATIENT } from '../../../test/adapters/ehr-xml/fixtures.js';

const map = mapExample('patient');

describe('PatientRecords example', () => {
  const records = map(example('patient.xml'));
  const extract = records[0]?.PatientEHRExtract[0];
  const patient = extract?.Patient;

  it('keeps a single record and a single extract as arrays', () => {
    expect(records).toHaveLength(1);
    expect(records[0]?.XSDVersion).toEqual({ version: 3.2 });
    expect(records[0]?.PatientEHRExtract).toHaveLength(1);
  });

  it('maps identifiers and time values from attributes', () => {
    expect(extract?.ehr_id).toEqual({ extension: '7c0e4a8e-2d1b-4f3a-9e55-31b2c7d90a11', root: '1.2.752.99999.1.1' });
    expect(extract?.ehr_system).toEqual({ extension: 'SE2321000016-1SYS', root: '1.2.752.129.2.1.4.1' });
    expect(extract?.time_created).toEqual({ value: '20250303080512' });
    expect(extract?.AccessZoneUnit).toEqual({ UnitID: { extension: 'SE2321000016-7P4K', root: '1.2.752.129.2.1.4.1' } });
    expect(extract?.HeadCareproviderUnit).toEqual({ UnitID: { extension: 'SE2321000016-0001', root: '1.2.752.129.2.1.4.1' } });
    expect(patient?.PatientID).toEqual({ extension: PATIENT, root: '1.2.752.129.2.1.3.1' });
    expect(patient?.rc_id).toEqual({ extension: '000120034', root: '1.2.752.99999.1.2' });
    expect(patient?.PatientBirthDate).toEqual({ value: '19121212' });
    expect(patient?.PatientVersionDateTime).toEqual({ value: '20240611143012' });
  });

  it('keeps leading zeros and numeric-looking register codes as strings', () => {
    expect(patient?.PatientInternalID).toBe('00012345');
    expect(patient?.PatientDataRegister).toEqual({
      PatientCounty: '01', PatientCity: '0180', PatientDistrict: '218003', PatientCountry: 'SE',
    });
    expect(patient?.PhoneNumbers.Phone[0]?.PhoneNumber).toBe('0701740605');
  });

  it('converts only the boolean leaf', () => {
    expect(patient?.PatientProtectedId).toBe(false);
    expect(patient?.PatientSex).toBe('M');
  });

  it('reads the prefixed pat:PatientName with given names in order', () => {
    expect(patient?.PatientName).toEqual({
      PatientFamilyName: 'Tolvansson',
      PatientMiddleName: 'Öberg',
      PatientGivenName: [{ qualifier: 'CL', value: 'Tolvan' }, { value: 'Nils-Åke' }],
    });
  });

  it('decodes CDATA and entities', () => {
    expect(patient?.PatientComment).toBe('Hörselnedsättning: boka skrivtolk. Kontaktperson <dotter> Märta Ström & make.');
    expect(patient?.EmailAddresses.Email[0]?.EmailComment).toBe('Kallelser via 1177 & e-post');
    expect(patient?.PatientAddresses.PatientAddress[1]?.PatientAddressComment).toBe('Sommarboende jun\u2013aug');
  });

  it('leaves out the empty PhoneComment and the xsi:nil PatientAddressCO', () => {
    expect(patient?.PhoneNumbers.Phone).toEqual([
      { PhoneComment: 'Nås bäst efter 16.00', PhoneType: 'MOBIL', PhoneNumber: '0701740605' },
      { PhoneType: 'HEM', PhoneNumber: '08-46500412' },
    ]);
    const temporary = patient?.PatientAddresses.PatientAddress[1];
    expect(temporary).not.toHaveProperty('PatientAddressCO');
    expect(temporary).toEqual({
      PatientAddressType: 'TILLFALLIG',
      PatientAddressCountryCode: 'NO',
      PatientAddressCountry: 'Norge',
      PatientAddressPostcode: '0150',
      PatientAddressCity: 'Oslo',
      PatientAddressStreet: 'Eksempelgata 3',
      PatientAddressComment: 'Sommarboende jun\u2013aug',
    });
  });

  it('maps every address field and a single Email as an array', () => {
    expect(patient?.PatientAddresses.PatientAddress[0]).toEqual({
      PatientAddressType: 'FOLKBOKFORING',
      PatientAddressCO: 'c/o Märta Ström',
      PatientAddressCountryCode: 'SE',
      PatientAddressCountry: 'Sverige',
      PatientAddressPostcode: '118 20',
      PatientAddressCity: 'Stockholm',
      PatientAddressStreet: 'Tolvansgatan 12 lgh 1203',
      PatientAddressComment: 'Portkod 1212',
    });
    expect(patient?.EmailAddresses.Email).toEqual([
      { EmailType: 'PRIVAT', EmailComment: 'Kallelser via 1177 & e-post', EmailAddress: 'tolvan.tolvansson@example.se' },
    ]);
  });
});

describe('PatientRecords edge cases', () => {
  const base = example('patient.xml');

  it('gives absent or empty wrappers with empty arrays', () => {
    let xml = edit(base, /<PhoneNumbers>[\s\S]*<\/PhoneNumbers>/.exec(base)?.[0] ?? '', '');
    xml = edit(xml, /<EmailAddresses>[\s\S]*<\/EmailAddresses>/.exec(xml)?.[0] ?? '', '<EmailAddresses/>');
    const patient = map(xml)[0]?.PatientEHRExtract[0]?.Patient;
    expect(patient?.PhoneNumbers).toEqual({ Phone: [] });
    expect(patient?.EmailAddresses).toEqual({ Email: [] });
  });

  it('answers an empty document with no records', () => {
    expect(map('<PatientRecords xmlns="urn:example:ehr:patient:3"/>')).toEqual([]);
  });

  it('refuses a birth date that is not an 8-digit date', () => {
    expect(() => map(edit(base, '<PatientBirthDate value="19121212"/>', '<PatientBirthDate value="19121212000000"/>')))
      .toThrow('bad time value in PatientBirthDate');
  });
});

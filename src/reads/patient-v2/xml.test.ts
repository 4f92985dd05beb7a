/**
 * Issue 13: the patient-v2 mirror document (PatientEHRExtracts) against the vendor's patient
 * information v2 layout, field by field, every trap the example lists included.
 */
import { describe, expect, it } from 'vitest';
import { selectDocument } from '../../../test/support/document-reads.js';
import { edit, example, HSA, ii, mapExample, TOLVAN, ZONE } from '../../../test/adapters/ehr-xml/fixtures.js';

const map = mapExample('patient-v2');
const base = example('patient-v2.xml');

describe('issue 13: PatientEHRExtracts example', () => {
  const answer = map(base);
  const [current, dental] = answer[0]?.patientEHRExtract ?? [];

  it('keeps both extracts in document order and picks none, whatever a range says', () => {
    expect(answer).toHaveLength(1);
    expect(answer[0]?.patientEHRExtract.map((e) => e.ehrId?.extension)).toEqual(['TOLV:EhrId:191212121212', 'TAND:EhrId:191212121212']);
    expect(selectDocument('patient-v2', answer, { from: '20300101000000' }, ZONE)).toEqual(answer);
  });

  it('maps the current extract field by field', () => {
    expect(current).toEqual({
      ehrId: ii('TOLV:EhrId:191212121212', '1.2.752.99999.1.1'),
      ehrSystem: ii('SE2321000016-1SYS', HSA),
      timeCreated: { value: '20261122080512' },
      patient: {
        rcId: ii('000120034', '1.2.752.99999.1.2'),
        patientVersionDateTime: { value: '20260611143012' },
        patientID: TOLVAN,
        patientInternalID: '00012345',
        patientProtectedId: false,
        patientSecrecyGroups: ['PRIMARVARD', 'GERIATRIK'],
        patientName: { familyName: 'Tolvansson', middleName: 'Öberg', givenName: [{ qualifier: 'CL', value: 'Tolvan' }, { value: 'Nils-Åke' }] },
        patientBirthDate: { value: '19121212' },
        patientSex: 'M',
        patientAddresses: [
          {
            PatientAddressType: 'FOLKBOKFORING', PatientAddressCO: 'c/o Märta Ström', PatientAddressStreet: 'Tolvansgatan 12 lgh 1203',
            PatientAddressPostcode: '118 20', PatientAddressCity: 'Stockholm', PatientAddressCounty: 'Stockholms län',
            PatientAddressCountry: 'Sverige', PatientAddressCountryCode: 'SE', PatientAddressComment: 'Portkod 1212',
          },
          {
            PatientAddressType: 'TILLFALLIG', PatientAddressStreet: 'Eksempelgata 3', PatientAddressPostcode: '0150',
            PatientAddressCity: 'Oslo', PatientAddressCountry: 'Norge', PatientAddressCountryCode: 'NO',
            PatientAddressComment: 'Sommarboende jun\u2013aug',
          },
        ],
        phoneNumbers: {
          phone: [
            { phoneType: 'MOBIL', phoneNumber: '0701740605', phoneComment: 'Nås bäst efter 16.00' },
            { phoneType: 'HEM', phoneNumber: '08-46500412' },
          ],
        },
        emailAddresses: { Email: [{ EmailType: 'PRIVAT', EmailAddress: 'tolvan.tolvansson@example.se', EmailComment: 'Kallelser via 1177 & e-post' }] },
        patientComment: 'Hörselnedsättning: boka skrivtolk. Kontaktperson <dotter> Märta Ström & make.',
        patientRelatives: {
          patientRelative: [
            {
              patientRelativeType: 'Dotter', patientRelativeName: 'Märta Ström', patientRelativeGivenName: 'Märta',
              patientRelativeFamilyName: 'Ström', patientRelativeOrder: '1', patientRelativeHomePhonenumber: '08-46500413',
              patientRelativeWorkPhonenumber: '0701740612', patientRelativeStreetAddress: 'Tolvansgatan 12 lgh 1203',
              patientRelativePostalCode: '118 20', patientRelativeCity: 'Stockholm',
              patientRelativeComment: 'Närmast anhörig, får lämnas information',
            },
            {
              patientRelativeType: 'Son', patientRelativeOrder: '2', patientRelativeGivenName: 'Olle', patientRelativeFamilyName: 'Tolvansson',
              patientRelativeName: 'Olle Tolvansson', patientRelativeWorkPhonenumber: '0701740618',
              patientRelativeAddress: 'Fjällvägen 7, 831 40 Östersund',
            },
          ],
        },
        patientDataRegister: { patientCountry: 'SE', patientCounty: '01', patientCity: '0180', patientDistrict: '218003' },
        patientConnectedInactiveNumbers: { patientConnectedInactiveNumber: [ii('000120034R', '1.2.752.99999.1.5')] },
        patientConnectedActiveNumbers: { patientConnectedActiveNumber: [TOLVAN] },
        patientPasses: {
          patientPass: [
            {
              patientPassTypeDiscountCard: 'Frikort', patientPassNumber: '0012345678',
              patientPassMembership: 'Högkostnadsskydd öppen hälso- & sjukvård',
              patientPassValidFrom: { value: '20260115' }, patientPassValidTo: { value: '20270114' },
            },
            {
              patientPassTypeDiscountCard: 'Tandvårdsstöd', patientPassMembership: 'Särskilt tandvårdsbidrag',
              patientPassNumber: '000458', patientPassValidFrom: { value: '20260101' },
            },
          ],
        },
        patientOtherIdentifiers: {
          patientOtherIdentifier: [{
            patientOtherIdentifierType: 'EU-kort (EHIC)', patientOtherIdentifierValue: '80752000010012345678',
            patientOtherIdentifierComment: 'Giltigt t.o.m. 2027-03-31',
          }],
        },
      },
      responsibleUnit: { unitID: ii('SE2321000016-7P4K', HSA), unitLocalID: ii('4711', '1.2.752.99999.1.4') },
      accessZoneUnit: { unitID: ii('SE2321000016-7P4K', HSA) },
      headCareProviderUnit: { unitID: ii('SE2321000016-0001', HSA) },
    });
  });

  it('leaves out xsi:nil, an empty TS value, empty elements and the unknown patientPreferredLanguage', () => {
    expect(current?.patient).not.toHaveProperty('patientDeceasedDate');
    expect(current?.patient?.patientPasses.patientPass[1]).not.toHaveProperty('patientPassValidTo');
    expect(current?.patient?.patientAddresses[1]).not.toHaveProperty('PatientAddressCO');
    expect(JSON.stringify(current)).not.toContain('patientPreferredLanguage');
  });

  it('maps the dental extract: one address still an array, an empty phoneNumbers wrapper, absent wrappers as []', () => {
    expect(dental?.patient).toEqual({
      patientVersionDateTime: { value: '20190301101500' }, patientID: TOLVAN, patientInternalID: '0000458',
      patientProtectedId: false, patientSecrecyGroups: [],
      patientName: { familyName: 'Tolvansson', givenName: [{ qualifier: 'CL', value: 'Tolvan' }] },
      patientBirthDate: { value: '19121212' }, patientSex: 'M',
      patientAddresses: [{
        PatientAddressType: 'FOLKBOKFORING', PatientAddressStreet: 'Tolvansgatan 12', PatientAddressPostcode: '118 20',
        PatientAddressCity: 'Stockholm', PatientAddressCountryCode: 'SE',
      }],
      phoneNumbers: { phone: [] },
      emailAddresses: { Email: [] },
      patientRelatives: { patientRelative: [] },
      patientConnectedInactiveNumbers: { patientConnectedInactiveNumber: [] },
      patientConnectedActiveNumbers: { patientConnectedActiveNumber: [] },
      patientPasses: { patientPass: [] },
      patientOtherIdentifiers: { patientOtherIdentifier: [] },
    });
  });
});

describe('issue 13: PatientEHRExtracts strictness', () => {
  it('refuses a boolean that is not true or false, and an 8-digit date that does not exist', () => {
    expect(() => map(edit(base, '<patientProtectedId>false</patientProtectedId>\n      <patientSecrecyGroups>PRIMARVARD',
      '<patientProtectedId>nej</patientProtectedId>\n      <patientSecrecyGroups>PRIMARVARD'))).toThrow('bad boolean patientProtectedId');
    expect(() => map(edit(base, '<patientPassValidFrom value="20260115"/>', '<patientPassValidFrom value="20260230"/>')))
      .toThrow('bad time value');
  });

  it('refuses a document naming another patient; connected numbers may differ', () => {
    expect(() => map(edit(base, '<patientID extension="191212121212" root="1.2.752.129.2.1.3.1"/>\n      <patientInternalID>0000458',
      '<patientID extension="198112189876" root="1.2.752.129.2.1.3.1"/>\n      <patientInternalID>0000458'))).toThrow('record of another patient');
    expect(() => map(edit(base, '<patientConnectedActiveNumber extension="191212121212"', '<patientConnectedActiveNumber extension="198112189876"')))
      .not.toThrow();
  });

  it('answers [] for an empty root', () => {
    expect(map('<PatientEHRExtracts xmlns="urn:example:ehr:patient-v2:1"/>')).toEqual([]);
  });
});

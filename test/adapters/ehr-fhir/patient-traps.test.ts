/** The traps of the FHIR contract for the patient reads (operations 4 and 5). */
import { describe, expect, it } from 'vitest';
import { mapPatientRecord } from '../../../src/reads/patient/fhir.js';
import { mapPatientV2 } from '../../../src/reads/patient-v2/fhir.js';
import { EhrError } from '../../../src/domain/ehr-error.js';
import { isProtectedIdentity } from '../../../src/domain/records/patient-identity.js';
import { changed, mapContext, readInput, type RawResource } from './support/demo-bundle.js';

const AFTER_OSLO_ENDED = Date.parse('2026-11-23T10:00:00Z');
const older = (resources?: RawResource[], number?: string, patientId?: string) =>
  mapPatientRecord(readInput([], { resources, number, patientId }), mapContext([], { nowMs: AFTER_OSLO_ENDED }));
const v2 = (resources?: RawResource[]) =>
  mapPatientV2(readInput(['RelatedPerson'], { resources }), mapContext([], { nowMs: AFTER_OSLO_ENDED }))[0]?.patientEHRExtract[0]?.patient;

describe('FHIR patient, protected identity', () => {
  it('marks the patient with skyddad folkbokföring protected, and an unmarked one not', () => {
    expect(isProtectedIdentity(older(undefined, '200404122384', 'pat-nora'), '200404122384')).toBe(true);
    expect(older()[0]?.PatientEHRExtract[0]?.Patient?.PatientProtectedId).toBe(false);
  });

  it.each([
    ['http://hl7.se/fhir/ig/base/CodeSystem/SecurityLabel', 'sekretessmarkering'],
    ['http://terminology.hl7.org/CodeSystem/v3-Confidentiality', 'R'],
    ['http://terminology.hl7.org/CodeSystem/v3-Confidentiality', 'V'],
    ['http://terminology.hl7.org/CodeSystem/v3-ActCode', 'DEMO'],
  ])('counts %s %s as protection too (when in doubt, protect)', (system, code) => {
    const resources = changed('Patient/pat-tolvan', (r) => { (r.meta as { security?: unknown[] }).security = [{ system, code }]; });
    expect(older(resources)[0]?.PatientEHRExtract[0]?.Patient?.PatientProtectedId).toBe(true);
    expect(v2(resources)?.patientProtectedId).toBe(true);
  });

  it('does not count a label of another system, or N', () => {
    const resources = changed('Patient/pat-tolvan', (r) => {
      (r.meta as { security?: unknown[] }).security = [{ system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'N' }, { code: 'R' }];
    });
    expect(older(resources)[0]?.PatientEHRExtract[0]?.Patient?.PatientProtectedId).toBe(false);
  });
});

describe('FHIR patient, identity numbers', () => {
  const withCoordinationNumber = changed('Patient/pat-tolvan', (r) => {
    r.identifier = [
      { use: 'old', system: 'urn:oid:1.2.752.129.2.1.3.3', value: '191212721219', period: { end: '2020-01-01' } },
      ...(r.identifier as unknown[]),
      { system: 'urn:oid:1.2.752.99999.1.3', value: 'X-77', type: { text: 'Reservnummer' } },
    ];
  });

  it('answers with the number it was asked for, a coordination number as one', () => {
    expect(older(withCoordinationNumber, '191212721219')[0]?.PatientEHRExtract[0]?.Patient?.PatientID)
      .toEqual({ root: '1.2.752.129.2.1.3.3', extension: '191212721219' });
  });

  it('refuses a Patient that does not carry the number asked for', () => {
    expect(() => older(undefined, '195507142478')).toThrow(EhrError);
  });

  it('lists current numbers as active, old ones as inactive, and other identifiers by type', () => {
    const patient = v2(withCoordinationNumber);
    expect(patient?.patientConnectedActiveNumbers.patientConnectedActiveNumber).toEqual([{ root: '1.2.752.129.2.1.3.1', extension: '191212121212' }]);
    expect(patient?.patientConnectedInactiveNumbers.patientConnectedInactiveNumber).toEqual([{ root: '1.2.752.129.2.1.3.3', extension: '191212721219' }]);
    expect(patient?.patientOtherIdentifiers.patientOtherIdentifier).toEqual([{ patientOtherIdentifierType: 'Reservnummer', patientOtherIdentifierValue: 'X-77' }]);
  });
});

describe('FHIR patient, the rest of the rules', () => {
  it('leaves out an address whose period has ended, and takes a two-letter country as the code, no name made up beside it', () => {
    expect(older()[0]?.PatientEHRExtract[0]?.Patient?.PatientAddresses.PatientAddress).toEqual([{
      PatientAddressType: 'folkbokföringsadress', PatientAddressCO: 'c/o Märta Ström', PatientAddressStreet: 'Tolvansgatan 12 lgh 1203',
      PatientAddressPostcode: '118 20', PatientAddressCity: 'Stockholm', PatientAddressCountryCode: 'SE',
    }]);
  });

  it('writes sex as M, F or U, and a date of death as a date', () => {
    const resources = changed('Patient/pat-tolvan', (r) => { r.gender = 'other'; r.deceasedDateTime = '2026-10-25T02:30:00+01:00'; });
    expect(v2(resources)?.patientSex).toBe('U');
    expect(v2(resources)?.patientDeceasedDate).toEqual({ value: '20261025' });
    expect(older(undefined, '200404122384', 'pat-nora')[0]?.PatientEHRExtract[0]?.Patient?.PatientSex).toBe('F');
  });

  it('lists active relatives only, with the home phone, and the work phone else the mobile one', () => {
    expect(v2()?.patientRelatives.patientRelative).toEqual([{
      patientRelativeType: 'Dotter', patientRelativeName: 'Märta Ström', patientRelativeGivenName: 'Märta', patientRelativeFamilyName: 'Ström',
      patientRelativeHomePhonenumber: '08-46500413', patientRelativeWorkPhonenumber: '0701740612',
      patientRelativeStreetAddress: 'Tolvansgatan 12 lgh 1203', patientRelativePostalCode: '118 20', patientRelativeCity: 'Stockholm',
    }]);
    expect(v2(changed('RelatedPerson/rp-marta-daughter-of-tolvan', (r) => { r.active = false; }))?.patientRelatives.patientRelative).toEqual([]);
  });

  it('names the managing unit and its head care provider by HSA id', () => {
    const extract = older()[0]?.PatientEHRExtract[0];
    expect(extract?.AccessZoneUnit).toEqual({ UnitID: { root: '1.2.752.129.2.1.4.1', extension: 'SE2321000016-7P4K' } });
    expect(extract?.HeadCareproviderUnit).toEqual({ UnitID: { root: '1.2.752.129.2.1.4.1', extension: 'SE2321000016-0001' } });
  });
});

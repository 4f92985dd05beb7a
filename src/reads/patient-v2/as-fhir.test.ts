import { describe, expect, it } from 'vitest';
import { describeFhirForm } from '../../../test/support/as-fhir-proof.js';
import { asFhirContext, NOW, recordsOverFhir, structureProblems } from '../../../test/support/as-fhir-round-trip.js';
import { ZONE } from '../../../test/support/test-app.js';
import { patientFacts } from '../../adapters/ehr-fhir/patient-facts.js';
import { ResourceIndex } from '../../adapters/ehr-fhir/resource-index.js';
import { checkedResource } from '../../adapters/ehr-fhir/schemas/index.js';
import { DEMO_FHIR_SETTINGS } from '../../dev/demo-data/fhir/bundle.js';
import { demoPerson } from '../../dev/demo-data/people.js';
import type { FhirResource } from '../as-fhir.js';
import type { PatientV2, PatientV2Data } from './answer.js';
import { patientV2AsFhir } from './as-fhir.js';
import { mapPatientV2 } from './fhir.js';

describeFhirForm('getPatientV2', []);

const ctx = asFhirContext(demoPerson('191212121212'));
const PERSONNUMMER = '1.2.752.129.2.1.3.1';

/** The v2 adapter's reading of the form's own resources: its Patient found by the lookup (§2), its RelatedPersons the matches. */
function readOwn(resources: FhirResource[], number: string): PatientV2[] {
  const index = new ResourceIndex('https://fhir.example/R4');
  resources.forEach((r) => index.add(r));
  const [patient] = resources.filter((r) => r.resourceType === 'Patient');
  const matches = resources.filter((r) => r.resourceType === 'RelatedPerson').map((r) => checkedResource('RelatedPerson', r));
  return mapPatientV2({ matches, index, patient: patientFacts(checkedResource('Patient', patient), number) },
    { zone: ZONE, idRoot: DEMO_FHIR_SETTINGS.idRoot, nowMs: NOW, note: () => undefined });
}

const item = (patient: Partial<PatientV2Data>): PatientV2 => ({
  patientEHRExtract: [{
    ehrId: { root: DEMO_FHIR_SETTINGS.idRoot, extension: 'Patient/pat-100' },
    timeCreated: { value: '20261011143012' },
    patient: {
      patientVersionDateTime: { value: '20261011143012' }, patientID: { root: PERSONNUMMER, extension: '191212121212' },
      patientInternalID: 'pat-100', patientProtectedId: false, patientSecrecyGroups: [], patientAddresses: [], phoneNumbers: { phone: [] }, emailAddresses: { Email: [] },
      patientRelatives: { patientRelative: [] }, patientPasses: { patientPass: [] },
      patientConnectedActiveNumbers: { patientConnectedActiveNumber: [{ root: PERSONNUMMER, extension: '191212121212' }] },
      patientConnectedInactiveNumbers: { patientConnectedInactiveNumber: [] },
      patientOtherIdentifiers: { patientOtherIdentifier: [] },
      ...patient,
    },
  }],
});

describe('getPatientV2 as FHIR, read back with its own Patient', () => {
  it('gives back every demo person\'s record, relatives and units included', async () => {
    for (const { person, records } of await recordsOverFhir('getPatientV2')) {
      expect(readOwn(patientV2AsFhir.resources(records, asFhirContext(person)), person.id), person.id).toEqual(records);
    }
  });

  it('gives back inactive and other identifiers, a date of death and a relative written with inner spaces and lines', () => {
    const records = [item({
      patientConnectedInactiveNumbers: { patientConnectedInactiveNumber: [{ root: '1.2.752.129.2.1.3.3', extension: '191212991234' }] },
      patientOtherIdentifiers: { patientOtherIdentifier: [{ patientOtherIdentifierType: 'Reservnummer', patientOtherIdentifierValue: 'R-77 1' }] },
      patientDeceasedDate: { value: '20261101' },
      patientRelatives: { patientRelative: [{
        patientRelativeType: 'Make/maka/partner', patientRelativeName: 'Anna  Maria Ström', patientRelativeGivenName: 'Anna  Maria',
        patientRelativeFamilyName: 'Ström', patientRelativeHomePhonenumber: '08-12 34 56', patientRelativeCOAddress: 'c/o Berg',
        patientRelativeStreetAddress: 'Gatan 1\nlgh 2', patientRelativeAddress: 'Gatan 1, Stockholm',
      }] },
    })];
    const resources = patientV2AsFhir.resources(records, ctx);
    expect(structureProblems(resources)).toEqual([]);
    expect(resources.find((r) => r.resourceType === 'Patient')?.identifier).toEqual([
      { system: 'http://electronichealth.se/identifier/personnummer', value: '191212121212' },
      { use: 'old', system: 'http://electronichealth.se/identifier/samordningsnummer', value: '191212991234' },
      { type: { text: 'Reservnummer' }, value: 'R-77 1' },
    ]);
    expect(readOwn(resources, '191212121212')).toEqual(records);
  });

  it('names every relative by an id that carries no identity number, and gives it no right (no delegation tag)', () => {
    const records = [item({ patientRelatives: { patientRelative: [{ patientRelativeType: 'Dotter' }, { patientRelativeType: 'Son' }] } })];
    const relatives = patientV2AsFhir.resources(records, ctx).filter((r) => r.resourceType === 'RelatedPerson');
    expect(new Set(relatives.map((r) => r.id)).size).toBe(2);
    expect(relatives.map((r) => r.id).join(' ')).not.toMatch(/\d{10}/);
    expect(relatives.map((r) => r.meta)).toEqual([undefined, undefined]);
  });
});

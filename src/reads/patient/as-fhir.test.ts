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
import type { PatientExtract, PatientRecord } from './answer.js';
import { patientAsFhir } from './as-fhir.js';
import { mapPatientRecord } from './fhir.js';
import { mapPatientV2 } from '../patient-v2/fhir.js';

describeFhirForm('getPatient', []);

const ctx = asFhirContext(demoPerson('191212121212'));
const NUMBER = '191212121212';

const record = (extract: Partial<PatientExtract>, patient: Partial<NonNullable<PatientExtract['Patient']>> = {}): PatientRecord => ({
  XSDVersion: { version: 3.2 },
  PatientEHRExtract: [{
    ehr_id: { root: '1.2.752.99999.1.1', extension: 'Patient/pat-100' },
    time_created: { value: '20260115093000' },
    ...extract,
    Patient: {
      PatientID: { root: '1.2.752.129.2.1.3.1', extension: NUMBER },
      PhoneNumbers: { Phone: [] }, EmailAddresses: { Email: [] }, PatientAddresses: { PatientAddress: [] },
      ...patient,
    },
  }],
});

const patientOf = (resources: FhirResource[]) => resources.find((r) => r.resourceType === 'Patient') as Record<string, unknown>;

/** The adapter reading the form's own Patient as the one its lookup found (§2), every Organization at hand. */
function readOwn(resources: FhirResource[], number: string): PatientRecord[] {
  const index = new ResourceIndex('https://fhir.example/R4');
  for (const r of resources) index.add(r);
  const patient = patientFacts(checkedResource('Patient', patientOf(resources)), number);
  return mapPatientRecord({ matches: [], index, patient }, { zone: ZONE, idRoot: DEMO_FHIR_SETTINGS.idRoot, nowMs: NOW, note: () => undefined });
}

describe('getPatient as FHIR, read back with its own Patient', () => {
  it('gives back every demo person\'s record, the managing unit and its head unit included', async () => {
    for (const { person, records } of await recordsOverFhir('getPatient')) {
      const resources = patientAsFhir.resources(records, asFhirContext(person));
      expect(readOwn(resources, person.id), person.id).toEqual(records);
    }
  });

  it('names the patient by the API\'s id and carries the personnummer only as an identifier', () => {
    const resources = patientAsFhir.resources([record({})], ctx);
    expect(resources.map((r) => r.id).join(' ')).not.toContain(NUMBER);
    expect(`Patient/${patientOf(resources).id as string}`).toBe(ctx.patientReference);
    expect(patientOf(resources).identifier).toEqual([{ system: 'http://electronichealth.se/identifier/personnummer', value: NUMBER }]);
  });

  it('writes the version time as an instant with the offset of its season', () => {
    const meta = (value: string) => patientOf(patientAsFhir.resources([record({ time_created: { value } })], ctx)).meta;
    expect(meta('20260115093000')).toMatchObject({ lastUpdated: '2026-01-15T09:30:00+01:00' });
    expect(meta('20260715093000')).toMatchObject({ lastUpdated: '2026-07-15T09:30:00+02:00' });
  });

  // Issue 52 item 19: this Patient is served only for a person the EHR holds in no v2 layout, whose v2 read answers [].
  it('tags the Patient as held in the older layout only, so the v2 read of it answers [] as the EHR does', () => {
    const resources = patientAsFhir.resources([record({})], ctx);
    expect(patientOf(resources).meta).toEqual({
      lastUpdated: '2026-01-15T09:30:00+01:00',
      tag: [{ system: 'http://example.org/fhir/pdas/CodeSystem/patient-layout', code: 'older-only' }],
    });
    const index = new ResourceIndex('https://fhir.example/R4');
    for (const r of resources) index.add(r);
    const patient = patientFacts(checkedResource('Patient', patientOf(resources)), NUMBER);
    const settings = { zone: ZONE, idRoot: DEMO_FHIR_SETTINGS.idRoot, nowMs: NOW, note: () => undefined };
    expect(mapPatientV2({ matches: [], index, patient }, settings)).toEqual([]);
    // Its older layout is read back as ever.
    expect(readOwn(resources, NUMBER)[0]?.PatientEHRExtract[0]?.Patient?.PatientID).toEqual({ root: '1.2.752.129.2.1.3.1', extension: NUMBER });
  });

  it('marks a protected patient with the label that says only "restricted", which the adapter reads as protected', () => {
    const resources = patientAsFhir.resources([record({}, { PatientProtectedId: true })], ctx);
    expect(patientOf(resources).meta).toMatchObject({ security: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'R' }] });
    expect(readOwn(resources, NUMBER)[0]?.PatientEHRExtract[0]?.Patient?.PatientProtectedId).toBe(true);
  });

  it('writes the legacy words of a record read from the legacy EHR as FHIR\'s codes, and text exactly as written', () => {
    const resources = patientAsFhir.resources([record({}, {
      PhoneNumbers: { Phone: [{ PhoneType: 'MOBIL', PhoneNumber: '070-123 45 67' }] },
      EmailAddresses: { Email: [{ EmailType: 'PRIVAT', EmailAddress: 'a@example.se' }] },
      PatientAddresses: { PatientAddress: [
        { PatientAddressType: 'FOLKBOKFORING', PatientAddressStreet: 'Storgatan  1\nlgh 1203 ', PatientAddressCountryCode: 'SE' },
        { PatientAddressType: 'TILLFALLIG', PatientAddressCO: 'c/o  Ström', PatientAddressCountry: 'Norge' },
      ] },
    })], ctx);
    const p = patientOf(resources);
    expect(p.telecom).toEqual([{ system: 'phone', value: '070-123 45 67', use: 'mobile' }, { system: 'email', value: 'a@example.se', use: 'home' }]);
    expect(p.address).toEqual([
      {
        extension: [{
          url: 'http://hl7.se/fhir/ig/base/StructureDefinition/SEBaseAddressPersonExtension',
          valueCodeableConcept: { coding: [{ system: 'http://snomed.info/sct', code: '63381000052101', display: 'folkbokföringsadress' }] },
        }],
        line: ['Storgatan  1\nlgh 1203 '], country: 'SE',
      },
      { use: 'temp', line: ['c/o  Ström'], country: 'Norge' },
    ]);
    expect(structureProblems(resources)).toEqual([]);
    expect(readOwn(resources, NUMBER)[0]?.PatientEHRExtract[0]?.Patient?.PatientAddresses.PatientAddress).toEqual([
      // The code alone, as the record has it: no name is made up beside it (issue 52 item 19a).
      { PatientAddressType: 'folkbokföringsadress', PatientAddressStreet: 'Storgatan  1\nlgh 1203 ', PatientAddressCountryCode: 'SE' },
      { PatientAddressType: 'temp', PatientAddressCO: 'c/o  Ström', PatientAddressCountry: 'Norge' },
    ]);
  });

  // Issue 52 item 19a: a country as the EHR wrote it, its code beside it. FHIR has one Address.country; the name goes
  // there as written and the code in FHIR's coding of a string (iso21090-SC-coding on _country), so both come back.
  // Failed before: country `SE` alone, which read back as the code and a Swedish name the reader made up.
  it('writes a country\'s name as written with its code in the SC-coding extension, and reads both back as they were', () => {
    const addresses = [
      { PatientAddressStreet: 'Storgatan 1', PatientAddressCountryCode: 'SE', PatientAddressCountry: 'Konungariket Sverige' },
      { PatientAddressStreet: 'Esimerkkikatu 5', PatientAddressCountryCode: 'FI', PatientAddressCountry: 'Finland' },
      { PatientAddressStreet: 'Storgata 2', PatientAddressCountryCode: 'NOR' },
    ];
    const resources = patientAsFhir.resources([record({}, { PatientAddresses: { PatientAddress: addresses } })], ctx);
    const coded = (code: string) => ({ extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/iso21090-SC-coding', valueCoding: { system: 'urn:iso:std:iso:3166', code } }] });
    expect(patientOf(resources).address).toEqual([
      { line: ['Storgatan 1'], country: 'Konungariket Sverige', _country: coded('SE') },
      { line: ['Esimerkkikatu 5'], country: 'Finland', _country: coded('FI') },
      { line: ['Storgata 2'], country: 'NOR', _country: coded('NOR') },
    ]);
    expect(structureProblems(resources)).toEqual([]);
    expect(readOwn(resources, NUMBER)[0]?.PatientEHRExtract[0]?.Patient?.PatientAddresses.PatientAddress).toEqual(addresses);
  });
});

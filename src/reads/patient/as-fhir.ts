/**
 * getPatient as FHIR: the older layout's extract is the Patient of docs/upstream-fhir.md §3.4 with
 * its managing organisation (AccessZoneUnit) and that unit's head unit (HeadCareproviderUnit), read
 * backwards. The Patient is written by the code both patient layouts share (src/reads/as-fhir-patient.ts).
 */
import { OLDER_LAYOUT_ONLY } from '../../adapters/ehr-fhir/patient-facts.js';
import type { PatientExtract } from './answer.js';
import type { AsFhirContext, FhirForm, FhirResource } from '../as-fhir.js';
import { WrittenResources } from '../as-fhir-parties.js';
import { patientResource, type PatientFacts } from '../as-fhir-patient.js';
import { getPatient } from './operation.js';

/**
 * The extract's facts as both layouts have them; §3.4 has no other identifier, no date of death and no county.
 * This Patient is served only when the EHR holds the person in no v2 layout (src/http/fhir/fhir-api.ts,
 * servedTypes), so it says so (OLDER_LAYOUT_ONLY): a second instance then answers the v2 read empty, as the EHR does.
 */
function factsOf(extract: PatientExtract, protectedId: boolean): PatientFacts | undefined {
  const p = extract.Patient;
  if (p === undefined) return undefined;
  return {
    version: p.PatientVersionDateTime?.value ?? extract.time_created.value,
    numbers: [{ ii: p.PatientID }],
    protectedId,
    sex: p.PatientSex,
    birthDate: p.PatientBirthDate?.value,
    name: p.PatientName === undefined ? undefined : {
      family: p.PatientName.PatientFamilyName, middle: p.PatientName.PatientMiddleName, given: p.PatientName.PatientGivenName,
    },
    phones: p.PhoneNumbers.Phone.map((t) => ({ type: t.PhoneType, value: t.PhoneNumber })),
    emails: p.EmailAddresses.Email.map((t) => ({ type: t.EmailType, value: t.EmailAddress })),
    addresses: p.PatientAddresses.PatientAddress,
    unitHsaId: extract.AccessZoneUnit?.UnitID?.extension,
    headHsaId: extract.HeadCareproviderUnit?.UnitID?.extension,
    tags: [OLDER_LAYOUT_ONLY],
  };
}

/**
 * One Patient: the first extract's (a legacy document lists the current version first, older ones
 * after it), with its units; a later extract's would be the same Patient, and its units no one's.
 */
export const patientAsFhir = {
  types: ['Patient'],
  app: { noSection: 'The page\'s heading: the app reads the Patient itself for the name and birth date.' },
  resources: (items, ctx: AsFhirContext): FhirResource[] => {
    // Protected wherever the document marks it, an older version's extract included (helper-205, F2).
    const protectedId = ctx.protectedInPatientDocument || getPatient.policy.marksProtectedIdentity(items);
    const facts = items.flatMap((record) => record.PatientEHRExtract.map((e) => factsOf(e, protectedId))).find((f) => f !== undefined);
    if (facts === undefined) return [];
    const out = new WrittenResources();
    out.add(patientResource(facts, out, ctx));
    return out.list();
  },
} satisfies FhirForm<'getPatient'>;

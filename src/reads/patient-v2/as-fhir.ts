/**
 * getPatientV2 as FHIR: the v2 layout's extract is the Patient of docs/upstream-fhir.md §3.5 with
 * its managing organisation and head unit, and a RelatedPerson for each relative, read backwards.
 * The Patient is written by the code both patient layouts share (src/reads/as-fhir-patient.ts).
 */
import type { PatientV2Data, PatientV2Extract } from './answer.js';
import type { AsFhirContext, FhirForm, FhirResource } from '../as-fhir.js';
import { WrittenResources } from '../as-fhir-parties.js';
import { patientResource, type PatientFacts } from '../as-fhir-patient.js';
import { recordIdOf, type PlainIi } from '../as-fhir-vendor-parts.js';
import { relatedPersons } from './as-fhir-relatives.js';
import { getPatientV2 } from './operation.js';

/** The numbers of a list that name one (both a root and an extension), inactive ones `old`. */
const numbersIn = (list: readonly PlainIi[], old: boolean): PatientFacts['numbers'] => list.flatMap((n) => {
  const ii = recordIdOf(n);
  return ii === undefined ? [] : [old ? { ii, old } : { ii }];
});

/** Connected numbers (active, then inactive) are the person-number identifiers; PersonId is one of them. */
function numbers(p: PatientV2Data): PatientFacts['numbers'] {
  const listed = [
    ...numbersIn(p.patientConnectedActiveNumbers.patientConnectedActiveNumber, false),
    ...numbersIn(p.patientConnectedInactiveNumbers.patientConnectedInactiveNumber, true),
  ];
  const id = recordIdOf(p.patientID);
  const isListed = id === undefined || listed.some((n) => n.ii.root === id.root && n.ii.extension === id.extension);
  return isListed ? listed : [{ ii: id }, ...listed];
}

function factsOf(extract: PatientV2Extract, p: PatientV2Data, protectedId: boolean): PatientFacts {
  return {
    version: p.patientVersionDateTime?.value ?? extract.timeCreated?.value,
    numbers: numbers(p),
    others: p.patientOtherIdentifiers.patientOtherIdentifier.map((o) => ({ type: o.patientOtherIdentifierType, value: o.patientOtherIdentifierValue })),
    protectedId,
    sex: p.patientSex,
    birthDate: p.patientBirthDate?.value,
    deceasedDate: p.patientDeceasedDate?.value,
    name: p.patientName === undefined ? undefined : { family: p.patientName.familyName, middle: p.patientName.middleName, given: p.patientName.givenName },
    phones: p.phoneNumbers.phone.map((t) => ({ type: t.phoneType, value: t.phoneNumber })),
    emails: p.emailAddresses.Email.map((t) => ({ type: t.EmailType, value: t.EmailAddress })),
    addresses: p.patientAddresses,
    // responsibleUnit and accessZoneUnit are both the one managingOrganization (§3.5).
    unitHsaId: (extract.responsibleUnit ?? extract.accessZoneUnit)?.unitID?.extension,
    headHsaId: extract.headCareProviderUnit?.unitID?.extension,
  };
}

/**
 * One Patient with its units and relatives: the first extract's. §3.5 answers one extract; a later
 * one (another source of the legacy EHR) would be the same Patient, and its units no one's; its
 * protection mark is the Patient's too.
 */
export const patientV2AsFhir = {
  types: ['Patient', 'RelatedPerson'],
  app: { noSection: 'The page\'s heading shows the patient, whom getPatient reads too.' },
  resources: (items, ctx: AsFhirContext): FhirResource[] => {
    const extract = items.flatMap((item) => item.patientEHRExtract).find((e) => e.patient !== undefined);
    if (extract?.patient === undefined) return [];
    const out = new WrittenResources();
    // Protected wherever the EHR marks it: any extract of this document, or the patient document (helper-205, F2).
    const protectedId = ctx.protectedInPatientDocument || getPatientV2.policy.marksProtectedIdentity(items);
    out.add(patientResource(factsOf(extract, extract.patient, protectedId), out, ctx), ...relatedPersons(extract.patient.patientRelatives.patientRelative, ctx));
    return out.list();
  },
} satisfies FhirForm<'getPatientV2'>;

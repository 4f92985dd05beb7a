/**
 * getDiagnoses as FHIR (docs/upstream-fhir.md#312-diagnoses-operation-12 read backwards): each
 * extract one Condition, of its first diagnosis, coded in ICD-10-SE, its type (`Huvuddiagnos`,
 * `Bidiagnos`, `Yttre orsak`) the category; each action a Procedure whose `reasonReference` names
 * the Condition, the contact an Encounter served by the care unit, the asserter and recorder
 * Practitioners (a PractitionerRole where the record gives a position or a unit). The `fhir-r4`
 * adapter reading these back answers one extract per Condition. */
import type { Diagnosis, DiagnosisEhrExtract } from '../../domain/records/index.js';
import type { AsFhirContext, FhirForm, FhirResource, RecordId } from '../as-fhir.js';
import { fhirDateTime, fhirOnly, reference } from '../as-fhir-common.js';
import { partIdOf, systemOf, textConcept } from '../as-fhir-datatypes.js';
import { WrittenResources } from '../as-fhir-parties.js';
import { contactEncounter, extractKeyOf, metaOf, recordIdOf, sharedExtractIds, vendorStaff } from '../as-fhir-vendor-parts.js';

type Action = Diagnosis['action'][number];
type CareProvider = DiagnosisEhrExtract['careProviders']['careProvider'][number];

const VERIFICATION = 'http://terminology.hl7.org/CodeSystem/condition-ver-status';
/** The ICD-10-SE system the adapter sends (docs/upstream-fhir.md#identifier-systems). */
const ICD10SE = 'urn:oid:1.2.752.116.1.1.1';
/** The Condition's staff roles, and the legacy word for the asserter (the equivalence test pairs them). */
const ROLES: ReadonlyMap<string, 'asserter' | 'recorder'> = new Map([['asserter', 'asserter'], ['recorder', 'recorder'], ['Diagnosställare', 'asserter']]);

/** A code of `root` (an OID or a URI) with its text; absent when the record gives none of the three. */
function concept(root: string | undefined, code: string | undefined, text: string | undefined) {
  const system = root === undefined ? undefined : systemOf(root);
  const written = fhirOnly({ coding: system === undefined && code === undefined ? undefined : [fhirOnly({ system, code })], text });
  return Object.keys(written).length === 0 ? undefined : written;
}

/**
 * Refuted when inactive, confirmed when signed (the inbound reads a confirmed Condition as signed
 * when recorded, R4 having no signing time); else none, which the inbound reads as active, unsigned.
 */
function verificationStatus(m: DiagnosisEhrExtract['diagnosisMetaData']) {
  const code = m?.DiagnosisActive === false ? 'refuted' : m?.DiagnosisSignDateTime === undefined ? undefined : 'confirmed';
  return code === undefined ? undefined : { coding: [{ system: VERIFICATION, code }] };
}

/**
 * When the diagnosis was recorded: the extract's time (the instant the read sorts on), unless the note
 * date names another day, which then stands. A note without a note date is recorded at its extract's
 * time too, converted as every other time is (issue 52 item 19d: the legacy example's notes in the
 * autumn's repeated hour and the spring gap have none, and went without a recordedDate).
 */
function recorded(e: DiagnosisEhrExtract): { value?: string } | undefined {
  const day = e.diagnosisMetaData?.DiagnosisNoteDate;
  const time = e.timeCreated;
  if (day?.value === undefined) return time;
  return time?.value?.startsWith(day.value) === true ? time : day;
}

function procedure(a: Action, i: number, condition: RecordId, ctx: AsFhirContext): FhirResource {
  const rcId = recordIdOf(a.rcId);
  return fhirOnly({
    resourceType: 'Procedure', id: rcId === undefined ? partIdOf('Procedure', condition, `action-${i}`, ctx) : ctx.idOf('Procedure', rcId),
    // R4 requires a status (1..1) and the record has none: `unknown` says no more than that.
    status: 'unknown',
    code: concept(a.actionTerminology, a.actionCode, a.actionDescription),
    subject: { reference: ctx.patientReference },
    performedDateTime: fhirDateTime(a.actionSurgeryDateTime, ctx.zone),
    reasonReference: [reference('Condition', ctx.idOf('Condition', condition))],
  });
}

/** The asserter and the recorder: the first care provider of each role. */
function staff(providers: readonly CareProvider[], out: WrittenResources, ctx: AsFhirContext) {
  const roles: { asserter?: { reference: string }; recorder?: { reference: string } } = {};
  for (const cp of providers) {
    const role = cp.careProviderType === undefined ? undefined : ROLES.get(cp.careProviderType);
    if (role !== undefined && roles[role] === undefined) roles[role] = vendorStaff(cp, out, ctx);
  }
  return roles;
}

/** A diagnosis and each one nested under it, alone, in document order. */
const eachDiagnosis = (d: Diagnosis): Diagnosis[] => [d, ...d.diagnosis.flatMap(eachDiagnosis)];

/**
 * The extract as one Condition (docs/upstream-fhir.md#312-diagnoses-operation-12: one extract per
 * Condition) of its first diagnosis, with the Procedures of every action of the extract, and its
 * Encounter. A legacy note's further diagnoses (a `Bidiagnos`, an external cause nested under its
 * injury) are not Conditions of their own: FHIR.md maps `diagnosis[0]` and leaves the nested ones
 * absent; their actions were done in the same note, so their Procedures name its Condition.
 */
function diagnosis(e: DiagnosisEhrExtract, shared: ReadonlySet<string>, out: WrittenResources, ctx: AsFhirContext): FhirResource[] {
  const [first, ...further] = (e.diagnoses?.diagnosis ?? []).flatMap(eachDiagnosis);
  const key = extractKeyOf('Condition', e.ehrId, first?.rcId, shared, e, ctx);
  const c = e.hCMContact;
  const encounter = c === undefined ? undefined : contactEncounter(c, key, c.contactSecrecyLevels.secrecyLevel,
    { hsaId: e.careUnit?.unitID?.extension, headHsaId: e.headCareProviderUnit?.unitID?.extension }, out, ctx);
  const actions = [...(first?.action ?? []), ...further.flatMap((d) => d.action), ...(e.diagnoses?.action ?? [])];
  const written = condition(e, first, key, actions, encounter, out, ctx);
  return encounter === undefined ? written : [...written, encounter];
}

/** One diagnosis of the extract as a Condition under `key`, and its actions' Procedures. */
function condition(
  e: DiagnosisEhrExtract, d: Diagnosis | undefined, key: RecordId, actions: readonly Action[], encounter: FhirResource | undefined,
  out: WrittenResources, ctx: AsFhirContext,
): FhirResource[] {
  const m = e.diagnosisMetaData;
  // The inbound reads both the diagnosis's type and the note's from category[0]: the diagnosis's own is kept.
  const type = d?.diagnosisType ?? m?.DiagnosisTypeOfNote;
  const codeType = d?.diagnosisTerminology ?? (d?.diagnosisCodeType === 'ICD-10-SE' ? ICD10SE : undefined);
  const main = fhirOnly({
    resourceType: 'Condition', id: ctx.idOf('Condition', key),
    meta: metaOf(m?.DiagnosisVersionDateTime, m?.DiagnosisSecrecyLevels.secrecyLevel, ctx.zone),
    verificationStatus: verificationStatus(m),
    category: type === undefined ? undefined : [textConcept(type)],
    code: concept(codeType, d?.diagnosisCode, d?.diagnosisDescription),
    subject: { reference: ctx.patientReference },
    encounter: encounter === undefined ? undefined : reference('Encounter', encounter.id),
    recordedDate: fhirDateTime(recorded(e), ctx.zone),
    ...staff(e.careProviders.careProvider, out, ctx),
  });
  return [main, ...actions.map((a, i) => procedure(a, i, key, ctx))];
}

export const diagnosesAsFhir = {
  types: ['Condition', 'Procedure'],
  app: { search: 'Condition?patient={id}', view: 'diagnoses', position: 40 },
  resources: (items, ctx) => {
    const out = new WrittenResources();
    const extracts = items.flatMap((i) => i.diagnosisEHRExtract);
    const shared = sharedExtractIds(extracts.map((e) => e.ehrId));
    for (const extract of extracts) out.add(...diagnosis(extract, shared, out, ctx));
    return out.list();
  },
} satisfies FhirForm<'getDiagnoses'>;

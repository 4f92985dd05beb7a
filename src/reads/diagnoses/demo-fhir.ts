/**
 * The demo's diagnoses in FHIR (the contract's operation 12): one Condition per diagnosis note, of
 * its first diagnosis, coded in ICD-10-SE, confirmed once its note is signed, refuted when the note
 * was made inactive; every action of the note a Procedure (KVÅ) whose reason is that Condition.
 */
import type { DemoClock } from '../../dev/demo-data/clock.js';
import { DIAGNOSES, type ActionSpec, type DiagnosisNoteSpec, type DiagnosisSpec } from './demo-data.js';
import { actionTime, diagnosisNoteFacts } from './demo-xml.js';
import type { DemoPerson } from '../../dev/demo-data/people.js';
import { instant, meta, patientRef, ref, roleId, secrecyLabels, SYSTEMS, text, type FhirResource } from '../../dev/demo-data/fhir/fhir-base.js';

const coded = (system: string, code: string) => ({ coding: [{ system: `http://terminology.hl7.org/CodeSystem/${system}`, code }] });

interface Writing { person: DemoPerson; clock: DemoClock; spec: DiagnosisNoteSpec; at: string; version: string; signed?: string; out: FhirResource[] }

function procedure(a: ActionSpec, id: string, conditionId: string, w: Writing): FhirResource {
  const done = actionTime(a, w.at, w.clock.zone);
  return {
    resourceType: 'Procedure', id, meta: meta(w.version, w.clock),
    status: 'completed',
    code: { coding: [{ system: SYSTEMS.kva, code: a.code, display: a.text }], text: a.text },
    subject: patientRef(w.person),
    ...(done === undefined ? {} : { performedDateTime: instant(done, w.clock.zone) }),
    reasonReference: [ref('Condition', conditionId)],
  };
}

function condition(d: DiagnosisSpec, key: string, w: Writing): string {
  const id = `cond-${key}`;
  const security = secrecyLabels(w.spec.secrecy);
  const verification = w.spec.active === false ? 'refuted' : w.signed === undefined ? 'provisional' : 'confirmed';
  w.out.push({
    resourceType: 'Condition', id, meta: meta(w.version, w.clock, security.length === 0 ? {} : { security }),
    clinicalStatus: coded('condition-clinical', 'active'),
    verificationStatus: coded('condition-ver-status', verification),
    category: [text(d.type)],
    code: { coding: [{ system: SYSTEMS.icd10se, code: d.code, display: d.text }], text: d.text },
    subject: patientRef(w.person),
    recordedDate: instant(w.at, w.clock.zone),
    asserter: ref('PractitionerRole', roleId(w.spec.staff)),
  });
  return id;
}

/** A diagnosis and each one under it, in document order, each with the key its actions are numbered by. */
const eachDiagnosis = (d: DiagnosisSpec, key: string): { d: DiagnosisSpec; key: string }[] =>
  [{ d, key }, ...(d.nested ?? []).flatMap((inner, i) => eachDiagnosis(inner, `${key}.${i + 1}`))];

export function diagnoses(person: DemoPerson, clock: DemoClock): FhirResource[] {
  return (DIAGNOSES[person.id] ?? []).flatMap((spec) => {
    const facts = diagnosisNoteFacts(spec, person, clock);
    const w: Writing = { person, clock, spec, ...facts, out: [] };
    const [main] = spec.diagnoses;
    if (main === undefined) return [];
    // One Condition per note, of its first diagnosis (docs/upstream-fhir.md#312-diagnoses-operation-12); every action of the note is done for it.
    const id = condition(main, `${facts.key}-1`, w);
    for (const { d, key } of spec.diagnoses.flatMap((x, i) => eachDiagnosis(x, `${facts.key}-${i + 1}`))) {
      (d.actions ?? []).forEach((a, i) => w.out.push(procedure(a, `proc-${key}-${i + 1}`, id, w)));
    }
    (spec.actions ?? []).forEach((a, i) => w.out.push(procedure(a, `proc-${facts.key}-a${i + 1}`, id, w)));
    return w.out;
  });
}

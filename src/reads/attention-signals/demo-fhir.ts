/**
 * The demo's attention signals in FHIR (docs/upstream-fhir.md#37-attention-signals-operation-7): a
 * hypersensitivity is an AllergyIntolerance recorded by the clinician's role at the signal's unit
 * (its care unit), every other signal a Flag whose kind is the project's attention-signal-type
 * coding, authored by its unit. A signal made inactive keeps its record, ended (an allergy, which has
 * no end, by the deletion's note: its time and comment). ATC codes carry the
 * system the legacy signals name.
 */
import { ATC_ROOT, signalTiming } from './demo-xml.js';
import type { DemoClock } from '../../dev/demo-data/clock.js';
import type { DemoPerson } from '../../dev/demo-data/people.js';
import { SIGNALS, type SignalSpec } from './demo-data.js';
import { deletionNote } from './fhir.js';
import { STAFF, type StaffKey, type UnitKey } from '../../dev/demo-data/units.js';
import { instant, meta, orgId, patientRef, ref, roleId, SYSTEMS, text, type FhirResource } from '../../dev/demo-data/fhir/fhir-base.js';
import { role } from '../../dev/demo-data/fhir/parties.js';

const KIND = 'http://example.org/fhir/pdas/CodeSystem/attention-signal-type';
const CATEGORY: Readonly<Record<string, string>> = {
  'Läkemedelsöverkänslighet': 'medication', 'Födoämnesöverkänslighet': 'food', 'Överkänslighet, ej läkemedel': 'environment',
};
const CRITICALITY: Readonly<Record<string, string>> = { Livshotande: 'high', Allvarlig: 'high', 'Besvärande': 'low' };
const coded = (system: string, code: string) => ({ system: `http://terminology.hl7.org/CodeSystem/${system}`, code });
const ATC = `urn:oid:${ATC_ROOT}`;
const unitOf = (spec: SignalSpec): UnitKey => spec.unit ?? STAFF[spec.staff].unit;

type Timing = ReturnType<typeof signalTiming>;

function allergy(spec: SignalSpec, person: DemoPerson, clock: DemoClock, t: Timing): FhirResource {
  const category = CATEGORY[spec.subType];
  const manifestations = spec.reactionTypes ?? (spec.reaction === undefined ? [] : [spec.reaction]);
  // Why it was made inactive, a note of its own at that time, marked as the deletion's (fhir.ts).
  const notes = [
    ...(spec.comment === undefined ? [] : [{ text: spec.comment }]),
    ...(spec.deleted === undefined || t.deleted === undefined ? [] : [deletionNote(instant(t.deleted, clock.zone), spec.deleted[1])]),
  ];
  return {
    resourceType: 'AllergyIntolerance', id: `allergy-${spec.id}`, meta: meta(t.deleted ?? t.registered, clock),
    clinicalStatus: { coding: [coded('allergyintolerance-clinical', t.deleted === undefined ? 'active' : 'inactive')] },
    verificationStatus: { coding: [coded('allergyintolerance-verification', spec.certitude === 'Misstänkt' ? 'unconfirmed' : 'confirmed')] },
    ...(category === undefined ? {} : { category: [category] }),
    ...(spec.severity !== undefined && CRITICALITY[spec.severity] !== undefined ? { criticality: CRITICALITY[spec.severity] } : {}),
    code: {
      coding: spec.atc ? spec.atc.map(([code, display]) => ({ system: ATC, code, display })) : (spec.agents ?? []).map((display) => ({ display })),
      text: spec.heading,
    },
    patient: patientRef(person),
    recordedDate: instant(t.registered, clock.zone),
    recorder: ref('PractitionerRole', roleId(spec.staff, unitOf(spec))),
    ...(notes.length === 0 ? {} : { note: notes }),
    ...(manifestations.length === 0 ? {} : {
      reaction: [{ manifestation: manifestations.map(text), ...(spec.reaction === undefined ? {} : { description: spec.reaction }) }],
    }),
  };
}

function flagCode(spec: SignalSpec) {
  const coding = [
    ...(spec.diagnosis ? [{ system: SYSTEMS.icd10se, code: spec.diagnosis[0], display: spec.diagnosis[1] }] : []),
    ...(spec.code === undefined ? [] : [{ system: ATC, code: spec.code, ...(spec.description === undefined ? {} : { display: spec.description }) }]),
  ];
  return { ...(coding.length === 0 ? {} : { coding }), text: spec.heading };
}

function flag(spec: SignalSpec, person: DemoPerson, clock: DemoClock, t: Timing): FhirResource {
  return {
    resourceType: 'Flag', id: `flag-${spec.id}`, meta: meta(t.deleted ?? t.registered, clock),
    status: t.deleted === undefined ? 'active' : 'inactive',
    category: [{ coding: [{ system: KIND, code: spec.kind, display: spec.subType }] }],
    code: flagCode(spec),
    subject: patientRef(person),
    period: { start: instant(t.registered, clock.zone), ...(t.deleted === undefined ? {} : { end: instant(t.deleted, clock.zone) }) },
    author: ref('Organization', orgId(unitOf(spec))),
  };
}

export function signals(person: DemoPerson, clock: DemoClock): FhirResource[] {
  return (SIGNALS[person.id] ?? []).map((spec) => {
    const t = signalTiming(spec, clock);
    return spec.kind === 'Hypersensitivity' ? allergy(spec, person, clock, t) : flag(spec, person, clock, t);
  });
}

/** The roles of clinicians who recorded a hypersensitivity for a unit other than their own. */
export function signalRoles(clock: DemoClock): FhirResource[] {
  const away = new Map<string, [StaffKey, UnitKey]>();
  for (const spec of Object.values(SIGNALS).flat()) {
    if (spec.kind === 'Hypersensitivity' && unitOf(spec) !== STAFF[spec.staff].unit) away.set(roleId(spec.staff, unitOf(spec)), [spec.staff, unitOf(spec)]);
  }
  return [...away.values()].map(([staff, unit]) => role(staff, clock, unit));
}

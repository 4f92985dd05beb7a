/**
 * A hypersensitivity as an AllergyIntolerance (docs/upstream-fhir.md §3.7, the AllergyIntolerance
 * column read backwards): the sub-type as the first category, Severity as `criticality`, Certitude
 * as the verification code, the agents and ATC codes as `code.coding`, the reaction with its
 * manifestations, the recorder (in a role at the signal's CareUnit) and the asserter.
 */
import { ATC_URI, isAtc } from '../../adapters/ehr-fhir/identifiers.js';
import type { AsFhirContext, FhirResource } from '../as-fhir.js';
import { fhirDateTime, fhirOnly } from '../as-fhir-common.js';
import { systemOf } from '../as-fhir-datatypes.js';
import type { WrittenResources } from '../as-fhir-parties.js';
import { careProvider, signalMeta, type SignalExtract } from './as-fhir-signal.js';
import { deletionNote } from './fhir.js';

type Hypersensitivity = NonNullable<NonNullable<SignalExtract['AttentionSignal']>['HypersensitivityType']>;
type AtcCode = Hypersensitivity['SignalATCCodes']['signalATCCode'][number];

const TERMINOLOGY = 'http://terminology.hl7.org/CodeSystem/';

/**
 * The sub-type by the first category. `Överkänslighet, ej läkemedel` is what `food`, `environment`
 * and `biologic` all give; it says only "not a medicine", so it is written as `environment`, as the
 * demo data set does. A legacy `Födoämnesöverkänslighet` is food (the equivalence suite pairs it).
 */
const CATEGORIES: Readonly<Record<string, string>> = {
  'Läkemedelsöverkänslighet': 'medication', 'Överkänslighet, ej läkemedel': 'environment', 'Födoämnesöverkänslighet': 'food',
};
/** FHIR's criticality codes as they are; the legacy severities as the equivalence suite pairs them. */
const CRITICALITY: Readonly<Record<string, string>> = {
  high: 'high', low: 'low', 'unable-to-assess': 'unable-to-assess', Livshotande: 'high', Allvarlig: 'high', 'Besvärande': 'low',
};
const VERIFICATION_CODES: ReadonlySet<string> = new Set(['unconfirmed', 'confirmed', 'refuted', 'entered-in-error']);
const LEGACY_CERTITUDE: Readonly<Record<string, string>> = { 'Bekräftad': 'confirmed', 'Misstänkt': 'unconfirmed' };

/** Certitude as the verification code; a word with no code stays as the concept's text. */
function verification(certitude: string | undefined) {
  if (certitude === undefined) return undefined;
  const code = VERIFICATION_CODES.has(certitude) ? certitude : LEGACY_CERTITUDE[certitude];
  return code === undefined ? { text: certitude } : { coding: [{ system: `${TERMINOLOGY}allergyintolerance-verification`, code }] };
}

/** An ATC code of the layout as a coding of a system the adapter reads as ATC (§1.4): its own where it is one. */
function atcCoding(c: AtcCode) {
  const system = c.CodeSystem === undefined ? ATC_URI : systemOf(c.CodeSystem);
  return fhirOnly({ system: isAtc({ system }) ? system : ATC_URI, code: c.Code, display: c.DisplayName?.value });
}

/**
 * `code.coding`: Agent is the display of each coding and the ATC codes are the ATC codings, in
 * order, so each ATC coding stands where its display is among the agents, and the other agents are
 * codings with a display only.
 */
function codings(h: Hypersensitivity) {
  const agents = h.Agent;
  const out: { display?: string }[] = [];
  let next = 0;
  for (const c of h.SignalATCCodes.signalATCCode) {
    const display = c.DisplayName?.value;
    const at = display === undefined ? -1 : agents.indexOf(display, next);
    if (at >= 0) {
      out.push(...agents.slice(next, at).map((agent) => ({ display: agent })));
      next = at + 1;
    }
    out.push(atcCoding(c));
  }
  // Text(code) gives the Heading as the one agent when no coding has a display (§3.7).
  const rest = agents.slice(next);
  const onlyHeading = !out.some((c) => c.display !== undefined) && rest.length === 1 && rest[0] === h.Heading;
  return [...out, ...(onlyHeading ? [] : rest.map((agent) => ({ display: agent })))];
}

/** The one reaction: every manifestation (R4 requires one: a reaction told only by its description is that). */
function reaction(h: Hypersensitivity) {
  const manifestations = h.ReactionTypes.length > 0 ? h.ReactionTypes : h.Reaction === undefined ? [] : [h.Reaction];
  return manifestations.length === 0 ? undefined : [fhirOnly({ manifestation: manifestations.map((text) => ({ text })), description: h.Reaction })];
}

/**
 * The signal's Comment as a note, then the deletion's comment as a note of its own at the deletion's
 * time (R4 has no end of an allergy), each as written: marked, so it reads back as the deletion's.
 */
function notes(s: SignalExtract['AttentionSignal'], ctx: AsFhirContext) {
  const comment = s?.HypersensitivityType?.Comment;
  const deletion = s?.SignalDeletionComment;
  const out = [
    ...(comment === undefined ? [] : [{ text: comment }]),
    ...(deletion === undefined ? [] : [deletionNote(fhirDateTime(s?.SignalDeletionDate, ctx.zone), deletion)]),
  ];
  return out.length === 0 ? undefined : out;
}

/** The AllergyIntolerance; the staff and units it names go to `out`, to follow it. */
export function allergyIntolerance(e: SignalExtract, id: string, out: WrittenResources, ctx: AsFhirContext): FhirResource {
  const s = e.AttentionSignal;
  const h = s?.HypersensitivityType;
  const code = fhirOnly({ coding: h === undefined ? undefined : codings(h), text: h?.Heading });
  const category = s?.SignalWarningSubType === undefined ? undefined : CATEGORIES[s.SignalWarningSubType];
  return fhirOnly({
    resourceType: 'AllergyIntolerance',
    id,
    meta: signalMeta(e, ctx),
    // R4 requires a clinical status of every allergy not entered in error (ait-1): active unless the record says not.
    clinicalStatus: { coding: [{ system: `${TERMINOLOGY}allergyintolerance-clinical`, code: s?.SignalActive === false ? 'inactive' : 'active' }] },
    verificationStatus: verification(h?.Certitude),
    category: category === undefined ? undefined : [category],
    criticality: h?.Severity === undefined ? undefined : CRITICALITY[h.Severity],
    code: Object.keys(code).length === 0 ? undefined : code,
    patient: { reference: ctx.patientReference },
    recordedDate: fhirDateTime(e.time_created, ctx.zone),
    // CareUnit is the recorder's role's organisation (§3.7): the recorder works for it here.
    recorder: careProvider(e, ['recorder', 'SIGNERARE'], out, ctx, e.CareUnit?.unitID),
    asserter: careProvider(e, ['asserter'], out, ctx),
    note: notes(s, ctx),
    reaction: h === undefined ? undefined : reaction(h),
  });
}

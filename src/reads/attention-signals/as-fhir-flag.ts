/**
 * A signal that is not a hypersensitivity as a Flag (docs/upstream-fhir.md §3.7, the Flag column
 * read backwards): its kind as a category coding of the project's attention-signal-type system, the
 * heading as `code.text` with a treatment-and-condition signal's diagnosis and treatment codes, the
 * period from its creation to its deletion, and one author.
 */
import { PDAS_BASE } from '../../adapters/ehr-fhir/extensions.js';
import { ATC_URI, ICD10SE_SYSTEMS, KVA_SYSTEM } from '../../adapters/ehr-fhir/identifiers.js';
import type { AsFhirContext, FhirResource } from '../as-fhir.js';
import { fhirDateTime, fhirOnly } from '../as-fhir-common.js';
import { UNKNOWN } from '../as-fhir-datatypes.js';
import type { WrittenResources } from '../as-fhir-parties.js';
import { careProvider, signalMeta, type SignalExtract } from './as-fhir-signal.js';

type Signal = NonNullable<SignalExtract['AttentionSignal']>;

const KIND_SYSTEM = `${PDAS_BASE}CodeSystem/attention-signal-type`;
/** The kinds the adapter knows (§3.7); any other code would make the Flag unreadable, so it is not written. */
const KINDS = ['ContagiousDisease', 'TreatmentAndCondition', 'NonStandardProcedure', 'Unstructured'] as const;
/** ICD-10-SE as the adapter sends it (§1.4: the first of its forms). */
const ICD10SE = [...ICD10SE_SYSTEMS][0];
/** An ATC code's form (A10BA02, and its shorter levels); a treatment code of another form is a KVÅ code (a procedure). */
const ATC_CODE = /^[A-Z]\d{2}(?:[A-Z](?:[A-Z](?:\d{2})?)?)?$/;

const kindOf = (s: Signal | undefined): (typeof KINDS)[number] | undefined => KINDS.find((k) => k === s?.SignalDataType);

/** The object the kind names holds the heading; a treatment-and-condition signal also its codes. */
function code(s: Signal | undefined) {
  const kind = kindOf(s) ?? 'Unstructured';
  const t = kind === 'TreatmentAndCondition' ? s?.TreatmentAndConditionType : undefined;
  const heading = s?.[`${kind}Type`]?.Heading;
  const coding = [
    ...(t?.DiagnosisCode === undefined && t?.DiagnosisDescription === undefined ? [] : [fhirOnly({ system: ICD10SE, code: t.DiagnosisCode, display: t.DiagnosisDescription })]),
    ...(t?.TreatmentCode === undefined ? [] : [fhirOnly({
      system: ATC_CODE.test(t.TreatmentCode) ? ATC_URI : KVA_SYSTEM, code: t.TreatmentCode, display: t.TreatmentDescription,
    })]),
  ];
  const concept = fhirOnly({ coding, text: heading });
  // R4 requires Flag.code: a signal with neither heading nor code says so, which Text(code) reads as nothing.
  return Object.keys(concept).length > 0 ? concept : UNKNOWN;
}

/** The Flag; its one author (R4's Flag has one) goes to `out`: the care provider who is the author, else the CareUnit. */
export function flag(e: SignalExtract, id: string, out: WrittenResources, ctx: AsFhirContext): FhirResource {
  const s = e.AttentionSignal;
  const kind = kindOf(s);
  // R4 requires a status: active unless the record says the signal is not.
  const status = s?.SignalActive === false ? 'inactive' : 'active';
  const careUnit = e.CareUnit?.unitID?.extension;
  const period = fhirOnly({
    start: fhirDateTime(e.time_created, ctx.zone),
    end: status === 'inactive' ? fhirDateTime(s?.SignalDeletionDate, ctx.zone) : undefined,
  });
  return fhirOnly({
    resourceType: 'Flag',
    id,
    meta: signalMeta(e, ctx),
    status,
    category: kind === undefined ? undefined : [{ coding: [fhirOnly({ system: KIND_SYSTEM, code: kind, display: s?.SignalWarningSubType })] }],
    code: code(s),
    subject: { reference: ctx.patientReference },
    period: Object.keys(period).length === 0 ? undefined : period,
    author: careProvider(e, ['author'], out, ctx) ?? (careUnit === undefined ? undefined : out.unit({ hsaId: careUnit }, ctx)),
  });
}

/**
 * The attention signals that are not hypersensitivities: Flags (docs/upstream-fhir.md#37-attention-signals-operation-7).
 * Their kind is the vendor's SignalDataType in a category coding of the project's code system (FHIR's
 * own flag categories do not tell infection, treatment and other signals apart); without one, a Flag
 * is `Unstructured`. A kind this service does not know is a fault, never a guess.
 */
import type { AttentionSignalEhrExtract } from '../../domain/records/index.js';
import { definedOnly } from '../../domain/records/defined.js';
import { textOf } from '../../adapters/ehr-fhir/codes.js';
import { PDAS_BASE } from '../../adapters/ehr-fhir/extensions.js';
import { fhirFault } from '../../adapters/ehr-fhir/fault.js';
import { ts } from '../../adapters/ehr-fhir/fhir-time.js';
import { hsaIdOf, isAtc, isIcd10Se, isKva, own, unitIdOf } from '../../adapters/ehr-fhir/identifiers.js';
import type { MapContext } from '../../adapters/ehr-fhir/map-context.js';
import type { ReadInput } from '../../adapters/ehr-fhir/read-input.js';
import type { Flag } from './resource-types.js';
import { signalCareProvider, signalPatient, type Signal } from '../../adapters/ehr-fhir/vendor-parts.js';

const KIND_SYSTEM = `${PDAS_BASE}CodeSystem/attention-signal-type`;

function kindOf(flag: Flag): { code: string; display?: string } {
  const coding = flag.category?.flatMap((c) => c.coding ?? []).find((c) => c.system === KIND_SYSTEM);
  return coding?.code === undefined ? { code: 'Unstructured' } : { code: coding.code, display: coding.display };
}

/** The object named by the kind, with what the kind carries. */
function kindMembers(flag: Flag, kind: string): Partial<Signal> {
  const Heading = textOf(flag.code);
  const codings = flag.code.coding ?? [];
  switch (kind) {
    case 'ContagiousDisease':
      return { ContagiousDiseaseType: definedOnly({ Heading }) };
    case 'NonStandardProcedure':
      return { NonStandardProcedureType: definedOnly({ Heading }) };
    case 'Unstructured':
      return { UnstructuredType: definedOnly({ Heading, Valid: flag.status === 'active' }) };
    case 'TreatmentAndCondition': {
      const diagnosis = codings.find(isIcd10Se);
      const treatment = codings.find((c) => isAtc(c) || isKva(c));
      return {
        TreatmentAndConditionType: definedOnly({
          Heading, DiagnosisCode: diagnosis?.code, DiagnosisDescription: diagnosis?.display, TreatmentCode: treatment?.code, TreatmentDescription: treatment?.display,
        }),
      };
    }
    default:
      throw fhirFault('a Flag of an unknown attention-signal kind');
  }
}

export function flagExtract(flag: Flag, input: ReadInput, ctx: MapContext): AttentionSignalEhrExtract {
  const kind = kindOf(flag);
  return definedOnly({
    ehr_id: own(flag, ctx.idRoot),
    time_created: ts(flag.period?.start, ctx) ?? ts(flag.meta?.lastUpdated, ctx),
    AttentionSignal: definedOnly({
      SignalVersionDateTime: ts(flag.meta?.lastUpdated, ctx),
      SignalActive: flag.status === 'active',
      SignalDeletionDate: flag.status === 'inactive' ? ts(flag.period?.end, ctx) : undefined,
      SignalDataType: kind.code,
      SignalWarningSubType: kind.display,
      MedicalRecordLinks: { MedicalRecordLinkData: [] },
      ...kindMembers(flag, kind.code),
    }),
    Patient: signalPatient(input.patient),
    CareUnit: unitIdOf(hsaIdOf(input.index.get(flag.author, 'Organization')?.identifier)),
    Units: { Unit: [] },
    CareProviders: { CareProvider: signalCareProvider('author', flag.author, input.index) },
  });
}

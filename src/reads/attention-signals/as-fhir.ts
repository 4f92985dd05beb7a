/**
 * getAttentionSignals as FHIR (docs/upstream-fhir.md §3.7 read backwards): a hypersensitivity is an
 * AllergyIntolerance, every other signal a Flag, each followed by the units and staff it names.
 */
import type { AsFhirContext, FhirForm, FhirResource } from '../as-fhir.js';
import { WrittenResources } from '../as-fhir-parties.js';
import { allergyIntolerance } from './as-fhir-allergy.js';
import { flag } from './as-fhir-flag.js';
import { signalId, type SignalExtract } from './as-fhir-signal.js';
import { sharedExtractIds } from '../as-fhir-vendor-parts.js';

const isHypersensitivity = (e: SignalExtract): boolean =>
  e.AttentionSignal?.SignalDataType === 'Hypersensitivity' || e.AttentionSignal?.HypersensitivityType !== undefined;

export const attentionSignalsAsFhir = {
  types: ['AllergyIntolerance', 'Flag'],
  // Two types, so two searches (a FHIR search has one type); beside the medications, which an allergy concerns most.
  app: { search: ['AllergyIntolerance?patient={id}', 'Flag?patient={id}'], view: 'list', position: 35 },
  resources: (items, ctx: AsFhirContext): FhirResource[] => {
    const out = new WrittenResources();
    const extracts = items.flatMap((item) => item.AttentionSignalEHRExtract);
    const shared = sharedExtractIds(extracts.map((e) => e.ehr_id));
    for (const e of extracts) {
      const type = isHypersensitivity(e) ? 'AllergyIntolerance' : 'Flag';
      const id = signalId(type, e, shared, ctx);
      out.add(type === 'AllergyIntolerance' ? allergyIntolerance(e, id, out, ctx) : flag(e, id, out, ctx));
    }
    return out.list();
  },
} satisfies FhirForm<'getAttentionSignals'>;

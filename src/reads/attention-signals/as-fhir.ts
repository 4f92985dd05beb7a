/**
 * getAttentionSignals as FHIR (docs/upstream-fhir.md §3.7 read backwards): a hypersensitivity is an
 * AllergyIntolerance, every other signal a Flag, each followed by the units and staff it names.
 */
import type { AsFhirContext, FhirForm, FhirResource } from '../as-fhir.js';
import { WrittenResources } from '../as-fhir-parties.js';
import { allergyIntolerance } from './as-fhir-allergy.js';
import { flag } from './as-fhir-flag.js';
import type { SignalExtract } from './as-fhir-signal.js';

const isHypersensitivity = (e: SignalExtract): boolean =>
  e.AttentionSignal?.SignalDataType === 'Hypersensitivity' || e.AttentionSignal?.HypersensitivityType !== undefined;

export const attentionSignalsAsFhir = {
  types: ['AllergyIntolerance', 'Flag'],
  resources: (items, ctx: AsFhirContext): FhirResource[] => {
    const out = new WrittenResources();
    for (const e of items.flatMap((item) => item.AttentionSignalEHRExtract)) {
      out.add(isHypersensitivity(e) ? allergyIntolerance(e, out, ctx) : flag(e, out, ctx));
    }
    return out.list();
  },
} satisfies FhirForm<'getAttentionSignals'>;

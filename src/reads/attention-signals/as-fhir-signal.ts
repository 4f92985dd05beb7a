/**
 * What the two FHIR forms of an attention signal share (docs/upstream-fhir.md §3.7 read backwards):
 * the record id, the version time and the care providers of the layout.
 */
import type { AttentionSignalEhrExtract } from './answer.js';
import type { AsFhirContext } from '../as-fhir.js';
import type { WrittenResources } from '../as-fhir-parties.js';
import { extractKeyOf, metaOf, vendorStaff, type PlainIi } from '../as-fhir-vendor-parts.js';

export type SignalExtract = AttentionSignalEhrExtract;
type CareProvider = SignalExtract['CareProviders']['CareProvider'][number];

/**
 * The resource's id, from the signal's `ehr_id` (Own, docs/upstream-fhir.md §3.7), else (an `ehr_id`
 * the answer's signals share, `shared`) its `RcId`.
 */
export const signalId = (type: string, e: SignalExtract, shared: ReadonlySet<string>, ctx: AsFhirContext): string =>
  ctx.idOf(type, extractKeyOf(type, e.ehr_id, e.AttentionSignal?.RcId, shared, e, ctx));

/** `meta.lastUpdated` is TS(SignalVersionDateTime) backwards; a signal has no secrecy level. */
export const signalMeta = (e: SignalExtract, ctx: AsFhirContext) => metaOf(e.AttentionSignal?.SignalVersionDateTime, undefined, ctx.zone);

/**
 * The first care provider of `types` (in that order of preference) as Staff backwards, in the v2
 * layouts' spelling the shared writer takes: the Practitioner, in a role at the unit `unitId` names
 * when given, else at the provider's own unit.
 */
export function careProvider(e: SignalExtract, types: readonly string[], out: WrittenResources, ctx: AsFhirContext, unitId?: PlainIi) {
  const p: CareProvider | undefined = types.flatMap((t) => e.CareProviders.CareProvider.filter((c) => c.CareProviderType === t))[0];
  const unitID = unitId ?? p?.CareProviderUnit?.unitID;
  return p === undefined ? undefined : vendorStaff({
    careProviderID: p.CareProviderID, careProviderInternalID: p.CareProviderInternalID, careProviderName: p.CareProviderName,
    careProviderPosition: p.ProviderPosition, careProviderUnit: unitID === undefined ? undefined : { unitID },
  }, out, ctx);
}

/**
 * What every read's FHIR form (src/reads/<read>/as-fhir.ts) shares: docs/upstream-fhir.md's rules
 * read backwards. Time as FHIR writes it (a 14-digit local time is an instant with the offset of
 * EHR_TIMEZONE, an 8-digit date stays a date), references, and a secrecy level as the security label
 * the `fhir-r4` adapter reads as one.
 */
import { compactDateToIso, compactToOffsetIso, isCompactDate, isCompactDateTime } from '../domain/time/local-time.js';
import type { AsFhirContext, FhirResource, RecordId } from './as-fhir.js';

/** TS(x) backwards: `{value}` of 14 digits as an instant with offset, of 8 as a date; absent otherwise. */
export function fhirDateTime(ts: { value?: string } | string | undefined, zone: string): string | undefined {
  const value = typeof ts === 'string' ? ts : ts?.value;
  if (value === undefined) return undefined;
  if (isCompactDateTime(value)) return compactToOffsetIso(value, zone);
  if (isCompactDate(value)) return compactDateToIso(value);
  return undefined;
}

export const reference = (type: string, id: string): { reference: string } => ({ reference: `${type}/${id}` });

/** A reference to the resource of `type` made from a record id. */
export const referenceTo = (type: string, record: RecordId, ctx: AsFhirContext): { reference: string } => reference(type, ctx.idOf(type, record));

export const CONFIDENTIALITY = 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality';

/** The codes of HL7's confidentiality system, which a secrecy level read from FHIR already is. */
const CONFIDENTIALITY_CODES: ReadonlySet<string> = new Set(['U', 'L', 'M', 'N', 'R', 'V']);

/**
 * A record's secrecy levels as `meta.security` labels: a level read from FHIR is the code it was
 * (`R`); a legacy level is FHIR's `R` (restricted) unless it is `Normal`, which has no label. The
 * release policy names the FHIR form in its rules (docs/release-policy.md).
 */
export function securityLabels(levels: readonly string[] | undefined): { system: string; code: string }[] {
  const codes = (levels ?? []).filter((l) => l !== 'Normal').map((l) => (CONFIDENTIALITY_CODES.has(l) ? l : 'R'));
  return [...new Set(codes)].map((code) => ({ system: CONFIDENTIALITY, code }));
}

/** The resources of `lists` each `Type/id` once, the first kept, in order. */
export function eachOnce(...lists: readonly (readonly FhirResource[])[]): FhirResource[] {
  const seen = new Set<string>();
  const out: FhirResource[] = [];
  for (const r of lists.flat()) {
    const key = `${r.resourceType}/${r.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(r);
  }
  return out;
}

/** An object without its undefined members and without empty arrays: FHIR allows neither. */
export function fhirOnly<T extends object>(o: T): T {
  // A loop, not entries/filter/fromEntries: every resource part passes here (BENCHMARKS.md part 10).
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(o)) {
    const v = (o as Record<string, unknown>)[key];
    if (v !== undefined && !(Array.isArray(v) && v.length === 0)) out[key] = v;
  }
  return out as T;
}

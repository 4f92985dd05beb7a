/**
 * The secrecy levels a FHIR EHR sends (docs/release-policy.md#a-fhir-ehr): the codes of HL7's
 * v3-Confidentiality code system, in `meta.security` and `Composition.confidentiality`. A level rule
 * naming anything else (the XML EHR's `Sekretess`) never matches with EHR_ADAPTER=fhir-r4: the record
 * it means arrives labelled `R` and would be released. Such a policy is refused at start, never applied.
 */
import { normalised } from './active-rules.js';
import type { ReleasePolicy } from './release-policy.js';

export const V3_CONFIDENTIALITY_CODES = ['U', 'L', 'M', 'N', 'R', 'V'] as const;

const DEFINED: ReadonlySet<string> = new Set(V3_CONFIDENTIALITY_CODES.map(normalised));
const LEVEL_RULES = ['noteSecrecyLevels', 'keywordSecrecyLevels', 'contactSecrecyLevels'] as const;

export interface LevelsNeverSent {
  rule: (typeof LEVEL_RULES)[number];
  levels: string[];
}

/**
 * Each level rule of `policy` with the levels that are no v3-Confidentiality code; empty when none.
 * Compared as the rule compares (src/domain/release/active-rules.ts), so ` r` counts as `R`.
 */
export function levelsFhirNeverSends(policy: ReleasePolicy): LevelsNeverSent[] {
  const found: LevelsNeverSent[] = [];
  for (const rule of LEVEL_RULES) {
    const levels = (policy[rule]?.levels ?? []).filter((level) => !DEFINED.has(normalised(level)));
    if (levels.length > 0) found.push({ rule, levels });
  }
  return found;
}

import type { AccessBasis } from '../access/relationship.js';
import type { ReleasePolicy } from './release-policy.js';
import { namesListedUnitOf } from './remembered-units.js';
import type { ListedUnits } from './unit-references.js';

/** The rules of a policy that apply to one caller, in the form the record rules test against. */
export interface ActiveRules {
  noteLevels?: ReadonlySet<string>;
  keywordLevels?: ReadonlySet<string>;
  contactLevels?: ReadonlySet<string>;
  withholdUnsigned: boolean;
  signingDelayDays?: number;
  units?: ListedUnits;
  keywordNames?: ReadonlySet<string>;
  /** The clock's instant and EHR_TIMEZONE, for the signing delay. */
  now: number;
  zone: string;
}

const normalisedTexts = new Map<string, string>();
/** Texts whose normal form is remembered: a region's few levels and keywords, repeated on every record. */
const NORMALISED_KEPT = 10_000;

/**
 * Levels and keyword names are compared trimmed, NFC and in lower case, so `Sekretess ` is `sekretess`.
 * Remembered per text (a bounded memo: the answer depends on the text alone), as a record's levels
 * are read again on every request.
 */
export function normalised(s: string): string {
  let n = normalisedTexts.get(s);
  if (n === undefined) {
    n = s.normalize('NFC').trim().toLocaleLowerCase('sv-SE');
    if (normalisedTexts.size >= NORMALISED_KEPT) normalisedTexts.clear();
    normalisedTexts.set(s, n);
  }
  return n;
}

export const anyListed = (values: readonly string[] | undefined, set: ReadonlySet<string> | undefined): boolean =>
  set !== undefined && (values ?? []).some((v) => set.has(normalised(v)));

/** Client tokens are held to a rule unless it says `applyToClientTokens: false`. */
export const appliesTo = (rule: { applyToClientTokens?: boolean } | undefined, basis: AccessBasis): boolean =>
  rule !== undefined && (basis !== 'client' || rule.applyToClientTokens !== false);

const setOf = (names: readonly string[]): ReadonlySet<string> => new Set(names.map(normalised));

export function activeRules(policy: ReleasePolicy, basis: AccessBasis, now: number, zone: string): ActiveRules {
  const p = policy;
  const rules: ActiveRules = {
    withholdUnsigned: appliesTo(p.unsignedNotes, basis) && p.unsignedNotes?.withhold === true,
    now,
    zone,
  };
  if (appliesTo(p.noteSecrecyLevels, basis) && p.noteSecrecyLevels) rules.noteLevels = setOf(p.noteSecrecyLevels.levels);
  if (appliesTo(p.keywordSecrecyLevels, basis) && p.keywordSecrecyLevels) rules.keywordLevels = setOf(p.keywordSecrecyLevels.levels);
  if (appliesTo(p.contactSecrecyLevels, basis) && p.contactSecrecyLevels) rules.contactLevels = setOf(p.contactSecrecyLevels.levels);
  if (appliesTo(p.signingDelay, basis) && p.signingDelay) rules.signingDelayDays = p.signingDelay.days;
  if (appliesTo(p.keywords, basis) && p.keywords) rules.keywordNames = setOf(p.keywords.names);
  if (appliesTo(p.careUnits, basis) && p.careUnits) rules.units = listedUnitsOf(p.careUnits);
  return rules;
}

const listedUnits = new WeakMap<NonNullable<ReleasePolicy['careUnits']>, ListedUnits>();

/** One list per policy's rule, not one per request: what a record names of it is remembered by it (remembered-units.ts). */
function listedUnitsOf(rule: NonNullable<ReleasePolicy['careUnits']>): ListedUnits {
  let units = listedUnits.get(rule);
  if (units === undefined) listedUnits.set(rule, units = Object.freeze({ unitIds: rule.unitIds ?? [], accessZoneIds: rule.accessZoneIds ?? [] }));
  return units;
}

/** Whether the extract names a care unit or access zone the rules list. */
export const byListedUnit = (extract: unknown, rules: ActiveRules): boolean => rules.units !== undefined && namesListedUnitOf(extract, rules.units);

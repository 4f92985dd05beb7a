import type { AccessBasis } from '../access/relationship.js';
import type { ReleasePolicy } from './release-policy.js';
import { namesListedUnit, type ListedUnits } from './unit-references.js';

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

/** Levels and keyword names are compared trimmed, NFC and in lower case, so `Sekretess ` is `sekretess`. */
export const normalised = (s: string): string => s.normalize('NFC').trim().toLocaleLowerCase('sv-SE');

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
  if (appliesTo(p.careUnits, basis) && p.careUnits) {
    rules.units = { unitIds: p.careUnits.unitIds ?? [], accessZoneIds: p.careUnits.accessZoneIds ?? [] };
  }
  return rules;
}

/** Whether the extract names a care unit or access zone the rules list. */
export const byListedUnit = (extract: unknown, rules: ActiveRules): boolean => rules.units !== undefined && namesListedUnit(extract, rules.units);

/**
 * The region's release policy (docs/contract.md#only-what-may-be-released, `RELEASE_POLICY_FILE`): which journal content may not be
 * shown to patients and their delegates. Every rule is optional; a rule applies to client tokens too
 * unless it says `"applyToClientTokens": false`. Unknown members are refused, so a misspelt rule is
 * an error at start instead of a rule silently not applied. docs/release-policy.md has the format.
 */
import { Type, type Static } from 'typebox';

const strict = { additionalProperties: false } as const;

const ForClientTokens = {
  /** Default true: a client token cannot show who is looking, so it is treated like a delegate. */
  applyToClientTokens: Type.Optional(Type.Boolean()),
};

const Names = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 1000 });

const IdentifierRule = Type.Object({
  root: Type.String({ minLength: 1, maxLength: 200 }),
  extension: Type.String({ minLength: 1, maxLength: 200 }),
}, strict);

const Identifiers = Type.Array(IdentifierRule, { minItems: 1, maxItems: 1000 });

const LevelsRule = Type.Object({ levels: Names, ...ForClientTokens }, strict);

/** Guardianship ends at 18 (src/domain/access/relationship-validity.ts); a limit is an age below that. */
const ChildAge = Type.Integer({ minimum: 1, maximum: 17 });

export const ReleasePolicySchema = Type.Object({
  /** Free text for the people who maintain the file; ignored by the service. */
  description: Type.Optional(Type.String()),
  /** Journal notes whose NoteSecrecyLevels name one of these levels are withheld. */
  noteSecrecyLevels: Type.Optional(LevelsRule),
  /** Keywords (Records, at any depth) whose KeywordSecrecyLevels name one of these are withheld with all they hold. */
  keywordSecrecyLevels: Type.Optional(LevelsRule),
  /** Care contacts (contactSecrecyLevels) and their actions (actionSecrecyLevels) naming one of these are withheld. */
  contactSecrecyLevels: Type.Optional(LevelsRule),
  /** Journal notes without NoteSignDateTime are withheld. */
  unsignedNotes: Type.Optional(Type.Object({ withhold: Type.Boolean(), ...ForClientTokens }, strict)),
  /** Journal notes are withheld until the same local time `days` calendar days after signing (unsigned ones too). */
  signingDelay: Type.Optional(Type.Object({ days: Type.Integer({ minimum: 1, maximum: 3650 }), ...ForClientTokens }, strict)),
  /** Notes, contacts, signals and prescriptions naming one of these units or access zones are withheld. */
  careUnits: Type.Optional(Type.Object({
    unitIds: Type.Optional(Identifiers),
    accessZoneIds: Type.Optional(Identifiers),
    ...ForClientTokens,
  }, strict)),
  /** Journal notes with a keyword (at any depth) of one of these names are withheld. */
  keywords: Type.Optional(Type.Object({ names: Names, ...ForClientTokens }, strict)),
  /** From the age given per operation, a guardian (and a client token, for a minor) gets none of that read's items (or of the access log). */
  guardianAgeLimit: Type.Optional(Type.Object({
    /** By operation id; which reads may have one is the operation table's to say (`guardianLimitFaults`). */
    operations: Type.Record(Type.String(), ChildAge, { minProperties: 1 }),
    ...ForClientTokens,
  }, strict)),
  /**
   * Until the age given per operation, the patient reading their own record gets none of that read's
   * items (1177: 16 for journal notes, lab results and diagnoses). Never a client token's, so it takes
   * no `applyToClientTokens` (refused, not ignored: issue 52 item 20). Delegates are the guardian age limit's.
   */
  patientAgeLimit: Type.Optional(Type.Object({
    /** By operation id: the reads the release policy filters (`policyFaults`). */
    operations: Type.Record(Type.String(), ChildAge, { minProperties: 1 }),
  }, strict)),
}, strict);

export type ReleasePolicy = Static<typeof ReleasePolicySchema>;

/** The operations each age limit may name, as the operation table says. */
export interface AgeLimited {
  /** The filtered reads and the access log. */
  guardian: readonly string[];
  /** The filtered reads: the patient always reads their own access log. */
  patient: readonly string[];
}

/**
 * What the schema cannot say: a care-unit rule must list something, and an age limit names only
 * operations it can govern. Returns the faults, empty when none.
 */
export function policyFaults(policy: ReleasePolicy, limited: AgeLimited): string[] {
  const faults: string[] = [];
  const rules = [['guardianAgeLimit', policy.guardianAgeLimit, limited.guardian], ['patientAgeLimit', policy.patientAgeLimit, limited.patient]] as const;
  for (const [name, rule, operations] of rules) {
    for (const operation of Object.keys(rule?.operations ?? {})) {
      if (!operations.includes(operation)) {
        faults.push(`/${name}/operations: unknown member "${operation}" (an age limit may be set for ${operations.join(', ')})`);
      }
    }
  }
  const units = policy.careUnits;
  if (units && units.unitIds === undefined && units.accessZoneIds === undefined) {
    faults.push('/careUnits must list unitIds or accessZoneIds');
  }
  return faults;
}

/**
 * Whose records a token's scopes reach (docs/contract.md#scopes), one rule for both doors: a
 * `patient/` scope reaches the launch patient only, the Patient id in the token's `smart_patient` or,
 * without one, the person the token names; any other form of a scope reaches everyone the person may
 * act for (a client token: the patient it names). The FHIR door applies it per resource type
 * (http/fhir/fhir-access.ts), the COS door per operation (PatientAccessPolicy); what a scope grants
 * (scope-grants.ts) never depends on the door it is shown at.
 */
import type { ScopeContext } from '../fhir/smart-scopes.js';

/** What of a token decides whom its scopes reach. */
export interface ScopeHolder {
  /** The person the token names; absent on a client token. */
  personId?: string;
  /** SMART's `smart_patient`: the FHIR Patient id of the patient the person picked at launch. */
  smartPatient?: string;
}

/** The identity number a Patient id of this service stands for; undefined for one its key did not make. */
export type IdentityNumberOf = (patientId: string) => string | undefined;

/**
 * The launch patient: the person `smart_patient` names when the token carries one, else the person
 * the token names. Undefined for a client token, and for a `smart_patient` this service cannot read
 * (its key did not make it, or there are no Patient ids without the FHIR API): it names nobody, never
 * the person instead.
 */
export function launchPatient(holder: ScopeHolder, identityNumberOf: IdentityNumberOf | undefined): string | undefined {
  if (holder.personId === undefined) return undefined;
  if (holder.smartPatient === undefined) return holder.personId;
  return identityNumberOf?.(holder.smartPatient);
}

/** The scope contexts that reach `patient`: a client token's `system/`; a person's `user/`, and `patient/` too for the launch patient. */
export function contextsReaching(holder: ScopeHolder, launch: string | undefined, patient: string): ScopeContext[] {
  if (holder.personId === undefined) return ['system'];
  return launch !== undefined && patient === launch ? ['patient', 'user'] : ['user'];
}

/** The contexts a token's scopes can reach anyone in at all: `system/` for a client token, `patient/` and `user/` for a person's. */
export const contextsOfHolder = (holder: ScopeHolder): ScopeContext[] => (holder.personId === undefined ? ['system'] : ['patient', 'user']);

/** Whether scopes granted in `granted` contexts reach a patient whom `reaching` contexts reach. */
export const reaches = (granted: ReadonlySet<ScopeContext>, reaching: readonly ScopeContext[]): boolean => reaching.some((c) => granted.has(c));

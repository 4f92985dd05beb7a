/**
 * What the service's own authorization server does to a patient's record that the patient's access
 * log must show (docs/sign-in.md#what-the-person-sees): a person grants an app access
 * to it, or withdraws that access. Neither is a request of the API, so neither has a path, a scope or
 * an OpenAPI entry: they are kept beside the operation table, as the FHIR API's own operations are,
 * and the access log's names (src/domain/access-log/display-names.ts), the patient app's names
 * (scripts/app-names/names.ts) and the FHIR AuditEvent are derived from here.
 */
import type { DisplayName } from './operation.js';

export interface GrantOperation {
  displayName: DisplayName;
  /** AuditEvent.action: C for a grant made, D for one withdrawn, E for a step of a launch. */
  action: 'C' | 'D' | 'E';
}

export const GRANT_OPERATIONS = {
  grantAppAccess: {
    displayName: { sv: 'App fick tillgång till din journal', en: 'An app was given access to your record' },
    action: 'C',
  },
  revokeAppAccess: {
    displayName: { sv: 'Appens tillgång till din journal togs bort', en: "An app's access to your record was withdrawn" },
    action: 'D',
  },
  // A launch's steps between and after those two (docs/sign-in.md#what-the-person-sees: each pick, token, refresh and refusal is audited).
  pickAppPatient: {
    displayName: { sv: 'Din journal valdes för en app', en: 'Your record was chosen for an app' },
    action: 'E',
  },
  issueAppToken: {
    displayName: { sv: 'En app fick nycklar till din journal', en: 'An app got its keys to your record' },
    action: 'E',
  },
  refreshAppToken: {
    displayName: { sv: 'En app förnyade sina nycklar till din journal', en: 'An app renewed its keys to your record' },
    action: 'E',
  },
} as const satisfies Record<string, GrantOperation>;

export type GrantOperationName = keyof typeof GRANT_OPERATIONS;

export const isGrantOperationName = (name: string): name is GrantOperationName => Object.hasOwn(GRANT_OPERATIONS, name);

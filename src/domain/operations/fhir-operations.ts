/**
 * The operations only the FHIR API has (docs/fhir-api.md#patient-summary): no COS path, no OpenAPI
 * entry, no scope of their own (SMART scopes decide on /fhir). They are kept beside the operation
 * table, not in it, so that what is derived from the table (the COS routes, the OpenAPI document, the
 * scope list, the demo issuer's scopes, the security suites' routes) stays the COS API's; what every
 * audited request needs, the name the patient's access log shows, is looked up in both
 * (src/domain/access-log/display-names.ts).
 */
import type { DisplayName } from './operation.js';
import type { SubscriptionOperationName } from './subscription-operations.js';
import type { OperationName } from './table.js';

export interface FhirOperation {
  displayName: DisplayName;
  /** The resource type it is invoked on, by id: `GET /fhir/<type>/<id>/$<code>`. */
  type: string;
  /** The operation's name after `$` in its URL, and its name in the CapabilityStatement. */
  code: string;
  /** The canonical URL of the OperationDefinition it implements. */
  definition: string;
}

export const FHIR_OPERATIONS = {
  getPatientSummary: {
    displayName: { sv: 'Sammanfattning', en: 'Patient summary' },
    type: 'Patient',
    code: 'summary',
    definition: 'http://hl7.org/fhir/uv/ips/OperationDefinition/summary',
  },
} as const satisfies Record<string, FhirOperation>;

export type FhirOperationName = keyof typeof FHIR_OPERATIONS;

/** The path of an operation below the FHIR base, with `:id` for the resource's id. */
export const fhirOperationPath = (op: FhirOperation): string => `/${op.type}/:id/$${op.code}`;

export const isFhirOperationName = (name: string): name is FhirOperationName => Object.hasOwn(FHIR_OPERATIONS, name);

/**
 * What a request is audited (and counted, and named in the access log) under: an operation of the
 * table, one of the FHIR API's own, or one of its Subscriptions' (subscription-operations.ts).
 */
export type AuditedOperation = OperationName | FhirOperationName | SubscriptionOperationName;

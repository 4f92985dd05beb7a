import type { FastifyRequest } from 'fastify';
import type { Caller, PatientAccess, PatientAccessPolicy } from '../domain/access/patient-access.js';
import { accessDenied } from '../domain/access/patient-access.js';
import { reachesOperation } from '../domain/access/operation-reach.js';
import { isFhirOperationName } from '../domain/operations/fhir-operations.js';
import { isOperationName, OPERATIONS } from '../domain/operations/table.js';
import { grantedContexts } from './granted-contexts.js';
import { operationOf } from './operation-of.js';

/**
 * The caller as the token names them. On the COS door the token's scopes of the operation also decide
 * whom it reaches (a `patient/` form the launch patient only, docs/contract.md#scopes); on /fhir the
 * route has decided that per resource type before it asks.
 */
export function callerOf(request: FastifyRequest): Caller {
  const token = request.token;
  const caller: Caller = token?.personId === undefined ? {} : { personId: token.personId };
  if (token?.smartPatient !== undefined) caller.smartPatient = token.smartPatient;
  // A /fhir route is audited under a COS read's name, but its SMART scopes were decided per type (fhir-access.ts).
  const operation = request.routeOptions.config?.fhir === true ? undefined : operationOf(request);
  if (token !== undefined && operation !== undefined && isOperationName(operation)) {
    caller.granted = grantedContexts(request, token, operation);
  }
  return caller;
}

/** The patient a request names, validated before anything is asked of the EHR; noted for the audit. */
export function targetPatientOf(request: FastifyRequest, policy: PatientAccessPolicy): string {
  const header = request.headers.patient;
  const patientId = policy.targetPatient(callerOf(request), typeof header === 'string' ? header : undefined);
  request.audit.patientId = patientId;
  return patientId;
}

/** Decides whether the caller may act for `patientId`; the basis (self, client, relationship) goes to the audit. */
export async function accessFor(request: FastifyRequest, policy: PatientAccessPolicy, patientId: string): Promise<PatientAccess> {
  const caller = callerOf(request);
  request.audit.delegation = caller.personId === undefined ? 'client' : caller.personId === patientId ? 'self' : 'delegation';
  const access = await policy.resolve(caller, patientId);
  request.audit.delegation = access.basis;
  if (!checkedPerRead(request) && !reachesOperation(access, operationOf(request) ?? '')) throw accessDenied();
  return access;
}

/**
 * Whether the request's reach is checked read by read rather than here: a FHIR read, search or
 * operation takes records of several reads and checks each as it takes it (patient-records.ts, then
 * ReadPatientData). Everything else, the access log's AuditEvents included, is checked here by the
 * operation it is audited under.
 */
function checkedPerRead(request: FastifyRequest): boolean {
  const operation = operationOf(request) ?? '';
  return request.routeOptions.config?.fhir === true
    && (isFhirOperationName(operation) || (isOperationName(operation) && OPERATIONS[operation].handler === 'records'));
}

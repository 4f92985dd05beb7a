import type { FastifyRequest } from 'fastify';
import type { Caller, PatientAccess, PatientAccessPolicy } from '../domain/access/patient-access.js';

function callerOf(request: FastifyRequest): Caller {
  const personId = request.token?.personId;
  return personId === undefined ? {} : { personId };
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
  return access;
}

import type { FastifyRequest } from 'fastify';
import type { PatientAccessPolicy } from '../domain/access/patient-access.js';
import { DomainError } from '../domain/errors.js';
import { callerOf } from './request-patient.js';

/**
 * On what the person acts for `patient`, as an audit record names it: `self`, or the relationship
 * the registry holds today; undefined where none holds (someone who lost the right to a child they
 * kept a subscription for, whose record then says so).
 */
export async function basisFor(request: FastifyRequest, policy: PatientAccessPolicy, patient: string): Promise<string | undefined> {
  const personId = request.token?.personId;
  if (personId === patient) return 'self';
  return unlessDenied(policy.basisOf(personId === undefined ? {} : { personId }, patient));
}

/** `basis`, or undefined where the policy refuses (ACCESS_DENIED): no right holds. */
async function unlessDenied(basis: Promise<string>): Promise<string | undefined> {
  try {
    return await basis;
  } catch (err) {
    if (err instanceof DomainError && err.code === 'ACCESS_DENIED') return undefined;
    throw err;
  }
}

/**
 * On what the person would be let act for `patient` now, as a refusal's audit record names it: the
 * access policy's whole decision for this token (whom its launch and scopes reach, the registry today,
 * and no delegation to a protected identity, which takes a read of the patient's record), so a refused
 * request is named on the basis an allowed one of theirs would have had, and a delegate of a protected
 * patient, or one the token's scopes do not reach, on none; undefined where none holds.
 */
export async function refusalBasisFor(request: FastifyRequest, policy: PatientAccessPolicy, patient: string): Promise<string | undefined> {
  const caller = callerOf(request);
  if (caller.personId === patient) return 'self';
  // The caller as the route would have asked (its launch, and on the COS door whom the operation's scopes reach).
  return unlessDenied(policy.resolve(caller, patient).then((access) => access.basis));
}

/**
 * The audit record of a refusal about `number`, a patient a Patient id of the request named other than
 * the one it may read (a 404 for a `patient` parameter naming someone other than the resource's patient,
 * a Consent list of someone else's grants): that patient, never the caller as `self`, and no basis.
 * Looking one up (a registry read for a real id, none for a made-up one, which names nobody) would tell
 * the two apart by the answer's timing (the reviews of 2026-11-29).
 */
export function noteRefusedFor(request: FastifyRequest, number: string): void {
  request.audit.patientId = number;
  delete request.audit.delegation;
}

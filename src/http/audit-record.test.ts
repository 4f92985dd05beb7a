/**
 * Whose basis a refusal's record may carry (src/http/audit-record.ts `refusalSubject`): a basis is
 * the right of a token's caller to a patient, so without a token there is none to look up, whatever
 * a route's presumption or an earlier step says, on either door.
 */
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { VerifiedToken } from '../ports/access-token-verifier.port.js';
import { refusalSubject } from './audit-record.js';

const LILLA = '201701012393';
const TOKEN = { personId: '198112189876', scopes: [] } as unknown as VerifiedToken;

/** A request as the audit plugin sees it: the route's config, what the route noted, the token if any. */
function requestOf(fhir: boolean, options: { token?: VerifiedToken; noted?: string; presumed?: string }): FastifyRequest {
  const config = fhir ? { fhir: true, presumedPatient: () => (options.presumed === undefined ? undefined : { patient: options.presumed, named: false }) } : {};
  return {
    routeOptions: { config }, headers: { patient: LILLA }, audit: options.noted === undefined ? {} : { patientId: options.noted },
    ...(options.token === undefined ? {} : { token: options.token }),
  } as unknown as FastifyRequest;
}

describe('refusalSubject', () => {
  it('looks a basis up for a token\'s presumed or noted patient', () => {
    expect(refusalSubject(requestOf(true, { token: TOKEN, presumed: LILLA }))).toEqual({ patient: LILLA, lookUp: true });
    expect(refusalSubject(requestOf(false, { token: TOKEN }))).toEqual({ patient: LILLA, lookUp: true });
  });

  // Failed before: the FHIR door trusted every presumption to answer nothing without a token, and the
  // COS door took a patient a route had noted, so a future route's slip would look up a basis for nobody's caller.
  it('names no subject without a token, whatever the route presumed or noted, on either door', () => {
    for (const fhir of [true, false]) {
      expect([fhir, refusalSubject(requestOf(fhir, { presumed: LILLA }))]).toEqual([fhir, undefined]);
      expect([fhir, refusalSubject(requestOf(fhir, { noted: LILLA }))]).toEqual([fhir, undefined]);
    }
  });
});

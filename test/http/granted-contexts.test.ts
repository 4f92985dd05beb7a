/**
 * What a token's scopes grant a COS operation is decided once a request (granted-contexts.ts): the
 * credentials check, whom the request may name and the access decision read the same answer.
 */
import type { FastifyRequest } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { grantedContexts } from '../../src/http/granted-contexts.js';
import { scopeGrantsOf } from '../../src/http/fhir/fhir-api.js';
import { fhirForms } from '../../src/start/fhir-api.js';
import type { VerifiedToken } from '../../src/ports/access-token-verifier.port.js';

const token = (scopes: string[], personId?: string): VerifiedToken =>
  ({ scopes: new Set(scopes), ...(personId === undefined ? {} : { personId }) }) as unknown as VerifiedToken;

describe('the contexts a request\'s token is granted its operation in', () => {
  const scopeGrants = scopeGrantsOf(fhirForms());
  const requestWith = () => ({ server: { scopeGrants }, operationGrant: undefined }) as unknown as FastifyRequest;

  it('asks the scopes once a request, and again for another operation or token', () => {
    const asked = vi.spyOn(scopeGrants, 'operationContexts');
    const request = requestWith();
    const marta = token(['patient/Appointment.rs', 'user/JournalNote-read'], '198112189876');
    expect([...grantedContexts(request, marta, 'getAppointments')]).toEqual(['patient']);
    expect([...grantedContexts(request, marta, 'getAppointments')]).toEqual(['patient']);
    expect(asked).toHaveBeenCalledTimes(1);
    expect([...grantedContexts(request, marta, 'getJournalNotes')]).toEqual(['user']);
    const client = token(['user/JournalNote-read']);
    // A COS name counts in its holder's own context: a client's is system.
    expect([...grantedContexts(request, client, 'getJournalNotes')]).toEqual(['system']);
    expect([...grantedContexts(requestWith(), token(['user/Appointment.rs'], '198112189876'), 'getAppointments')]).toEqual(['user']);
    expect(asked).toHaveBeenCalledTimes(4);
    asked.mockRestore();
  });
});

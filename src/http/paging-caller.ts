import type { FastifyRequest } from 'fastify';

/**
 * Who follows a page cursor, as the cursor is bound to them (docs/contract.md): the person and the app
 * (a client token's app alone), so a `next` link handed to another person or app is refused, not
 * followed. Not the token's issuer or subject, which instances behind one address may word differently.
 */
export function pagingCaller(request: FastifyRequest): string {
  const token = request.token;
  return JSON.stringify([token?.personId ?? '', token?.clientId ?? token?.subject ?? '']);
}

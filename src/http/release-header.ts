import type { FastifyReply, FastifyRequest } from 'fastify';

/** Set on an answer from which the release policy withheld anything (docs/contract.md#only-what-may-be-released); absent otherwise. */
export const FILTERED_HEADER = 'Patient-Data-Filtered';

/** Tells the caller that something was withheld, and the audit record how many items; never which. */
export function noteWithheld(request: FastifyRequest, reply: FastifyReply, withheld: number): void {
  if (withheld <= 0) return;
  request.audit.withheld = withheld;
  reply.header(FILTERED_HEADER, 'true');
}

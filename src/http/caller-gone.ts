import type { FastifyReply } from 'fastify';

/**
 * Aborts once the caller has gone: its connection closed before the answer was sent. Not Fastify's
 * `request.signal`, which follows the request stream: Node closes that stream as soon as a body has
 * been read to its end, so for a write (which has a body) it aborted while the caller still waited.
 */
export function callerGone(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  const answer = reply.raw;
  const closed = (): void => {
    if (!answer.writableFinished) gone.abort();
  };
  if (answer.destroyed) closed();
  else answer.once('close', closed);
  return gone.signal;
}

import type { FastifyReply } from 'fastify';

/**
 * Aborts when the caller's connection closes before its answer was sent in full: an answer still
 * waiting for its turn is then no longer worth making (ports/answer-memory.port.ts). A request cannot
 * be withdrawn on HTTP/1.1 but by closing its connection, so that close is the only sign there is.
 */
export function callerGone(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  const response = reply.raw;
  response.once('close', () => {
    if (!response.writableFinished) gone.abort();
  });
  return gone.signal;
}

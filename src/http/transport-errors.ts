import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

const ANSWERS: Record<string, { status: number; reason: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', message: 'Request headers are too large.' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', message: 'The request was not received in time.' },
};
const MALFORMED = { status: 400, reason: 'Bad Request', message: 'The request is malformed.' };

/**
 * Requests Node's HTTP layer refuses before Fastify sees them (a header block over the limit, a
 * control byte in a header, a request still arriving at its deadline) still get a shape-1 body
 * with a fixed text, never the framework's own.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { status, reason, message } = ANSWERS[err.code ?? ''] ?? MALFORMED;
  const body = JSON.stringify({ statusCode: status, message });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\n`
    + `content-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`);
}

/** Errors Fastify raises while routing (a malformed percent-encoding): a fixed text, nothing of the URL echoed. */
export function frameworkErrors(_error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  void reply.code(400).header('cache-control', 'no-store').send({ statusCode: 400, message: 'The request URL is malformed.' });
}

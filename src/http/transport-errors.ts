import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

const REASONS: Record<number, string> = { 400: 'Bad Request', 431: 'Request Header Fields Too Large' };

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a header block over the limit, a
 * control byte in a header) still get a shape-1 body with a fixed text, never the framework's own.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify({ statusCode: status, message: status === 431 ? 'Request headers are too large.' : 'The request is malformed.' });
  socket.end(`HTTP/1.1 ${status} ${REASONS[status]}\r\ncontent-type: application/json; charset=utf-8\r\n`
    + `content-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`);
}

/** Errors Fastify raises while routing (a malformed percent-encoding): a fixed text, nothing of the URL echoed. */
export function frameworkErrors(_error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  void reply.code(400).header('cache-control', 'no-store').send({ statusCode: 400, message: 'The request URL is malformed.' });
}

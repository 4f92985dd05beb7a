import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../ports/clock.port.js';
import { answerShapeOf, errorBody } from './error-body.js';
import { FHIR_JSON } from './fhir/operation-outcome.js';

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

/** What Fastify's routing errors say: fixed texts, nothing of the URL echoed. */
const URL_FAULTS: Readonly<Record<string, string>> = {
  FST_ERR_MAX_PARAM_LENGTH: 'A path segment is longer than 100 characters: an id is 1 to 64 letters, digits, \'-\' or \'.\'.',
};

/**
 * Errors Fastify raises while routing, before any route is chosen (a malformed percent-encoding, a path
 * segment over the router's 100 characters): 400 with a fixed text, in the shape of the path's door as
 * every other error (src/http/error-body.ts), so an over-long id below /fhir is an OperationOutcome as a
 * shorter bad id is (issue 52 item 12).
 */
export function frameworkErrorsOf(basePath: string, clock: Clock) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const shape = answerShapeOf(request, basePath);
    if (shape === 'fhir') reply.type(FHIR_JSON);
    const message = URL_FAULTS[error.code] ?? 'The request URL is malformed.';
    void reply.code(400).header('cache-control', 'no-store').send(errorBody(request, 400, message, clock.now(), shape));
  };
}

/**
 * A GET or HEAD takes no body here, and one sent is refused whatever it holds, before the credentials
 * (threat 8: a token in a body is refused, not passed over while the request is served). fastify never
 * reads such a body, so the connection is closed after the answer rather than drained of it (whatever
 * answered it: a route outside the API, a 404), and:
 *
 * - Node's unasked `100 Continue` is not sent for it: that would invite the body (perhaps a token);
 * - a request pipelined behind it on the same connection, which Node parses and hands over before the
 *   first is answered, is refused too, before anything is read for it: its answer could never be sent
 *   on the closing connection, and an access recorded as answered must have been.
 *
 * Routes of other methods that read no body refuse theirs once routed (no-body.ts).
 */
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { ApiError } from './api-error.js';

const takesNoBody = (method: string | undefined): boolean => method === 'GET' || method === 'HEAD';

/** Whether a request announces a body: a Content-Length other than 0, or any Transfer-Encoding. */
export const announcesBody = (request: IncomingMessage): boolean =>
  request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? '0') !== 0;

const refusedBody = (method: string): ApiError =>
  new ApiError(400, `A ${method} request takes no body: send none, and the access token in the Authorization header.`, { connection: 'close' });

const behindRefused = (): ApiError =>
  new ApiError(400, 'An earlier request on this connection was refused for sending a body with a GET or HEAD: send this request on a new connection.', { connection: 'close' });

export class BodilessRequests {
  /** The first request refused for its body, by its connection: every later one on it is refused too. */
  private readonly refusedOn = new WeakMap<Socket, IncomingMessage>();

  constructor(server: HttpServer) {
    server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
      if (!takesNoBody(request.method)) response.writeContinue();
      server.emit('request', request, response);
    });
    // Node emits the requests of one connection in order as it parses them, so the one with a body is
    // marked before any pipelined behind it arrives. Its connection is closed after its answer, whatever
    // answers it (a refusal, a health check, a 404): a client reusing it would find its next request refused.
    server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
      if (!takesNoBody(request.method) || !announcesBody(request)) return;
      response.shouldKeepAlive = false;
      if (!this.refusedOn.has(request.socket)) this.refusedOn.set(request.socket, request);
    });
  }

  /** The refusal of `request`, or undefined: a GET or HEAD with a body, or anything behind one on its connection. */
  refusal(request: FastifyRequest): ApiError | undefined {
    if (takesNoBody(request.method) && announcesBody(request.raw)) return refusedBody(request.method);
    const first = this.refusedOn.get(request.raw.socket);
    return first === undefined || first === request.raw ? undefined : behindRefused();
  }
}

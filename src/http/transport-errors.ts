import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthServerMount } from '../ports/auth-server.port.js';
import type { Clock } from '../ports/clock.port.js';
import { answerShapeOf, errorBody } from './error-body.js';
import { FHIR_JSON, isFhirPath, operationOutcome } from './fhir/operation-outcome.js';

const ANSWERS: Record<string, { status: number; reason: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', message: 'Request headers are too large.' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', message: 'The request was not received in time.' },
};
const MALFORMED = { status: 400, reason: 'Bad Request', message: 'The request is malformed.' };

/** The service's own authorization server, whose pages answer what is refused under its mount path (docs/sign-in.md). */
export type AuthPages = Pick<AuthServerMount, 'mountPath' | 'refusedPage'>;

export const underMount = (url: string, mountPath: string): boolean => url === mountPath || url.startsWith(`${mountPath}/`) || url.startsWith(`${mountPath}?`);

/** The request line of a refused request and the headers that choose a page's language, as far as one packet holds them. */
export interface RefusedRequest { method: string; url: string; headers: IncomingHttpHeaders }

/**
 * The request Node's parser refused, as far as the packet it was parsing holds it (`rawPacket`): its
 * method and target, and the headers that choose a page's language. Undefined unless the packet begins
 * with the request line: a request whose line began in an earlier packet cannot be told from any other.
 */
export function requestIn(packet: unknown): RefusedRequest | undefined {
  if (!Buffer.isBuffer(packet)) return undefined;
  const [line = '', ...fields] = packet.toString('latin1').split('\r\n');
  const [, method, url] = /^([A-Z]{3,10}) (\/\S*)/.exec(line) ?? [];
  if (method === undefined || url === undefined) return undefined;
  const headers: IncomingHttpHeaders = {};
  for (const field of fields) {
    if (field === '') break;
    const colon = field.indexOf(':');
    const name = field.slice(0, colon).trim().toLowerCase();
    if (colon > 0 && (name === 'accept-language' || name === 'cookie')) headers[name] = field.slice(colon + 1).trim();
  }
  return { method, url, headers };
}

/**
 * An answer written on the socket itself (there is no request or response object): fixed headers, then
 * the connection closes. The answer to a HEAD (`method`, when the refused packet says it) is its
 * header block alone, as RFC 9110 §9.3.2 has every answer to HEAD.
 */
export function endWith(socket: Socket, status: number, reason: string, headers: Readonly<Record<string, string>>, body: string, method?: string): void {
  // Date as Node's HTTP layer writes it on every other answer (RFC 9110 §6.6.1), from the same system clock.
  const framing = { date: new Date().toUTCString(), 'content-length': String(Buffer.byteLength(body)), connection: 'close' };
  const fields = Object.entries({ ...headers, ...framing }).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${fields.join('')}\r\n${method === 'HEAD' ? '' : body}`);
}

/** The status line and fixed text of each refusal of Node's parser; anything else it refuses is a malformed request. */
export function refusalOf(code: string | undefined): { status: number; reason: string; message: string } {
  return ANSWERS[code ?? ''] ?? MALFORMED;
}

/**
 * What every answer gets from the app's hooks (src/http/app.ts), for one written on the socket, which
 * no hook sees: its own request id, the log line, and the API's security headers (over TLS with HSTS),
 * taken from where the API makes them (src/http/plugins/api-protection.ts), not listed again here.
 */
export interface SocketEdge {
  securityFields: (encrypted: boolean) => Readonly<Record<string, string>>;
  requestId: () => string;
  logger: FastifyBaseLogger;
}

/**
 * Requests Node's HTTP layer refuses before Fastify sees them (a header block over the limit, a
 * control byte in a header, a request still arriving at its deadline) are answered as every other
 * answer of the API: an X-Request-Id, the API's security headers, `Cache-Control: no-store`, one log
 * line (its status, Node's code, the method and the path's length as a request nobody routed, never
 * the path itself), and a fixed text, never the framework's own, in the shape of the path's door:
 * an OperationOutcome under /fhir, else shape 1. A request too large under the authorization server's
 * mount path (an authorization address of 20 KB) gets the server's own page instead, with its own
 * headers. Both need the path, which Node hands over only in the packet in which it found the fault
 * (`rawPacket`): when that packet begins with the request line (plain HTTP, the request read in one
 * piece). One whose start came in an earlier read (over TLS a request over 16 KiB always spans
 * records), or that ran out of time (Node hands over no packet), gets shape 1 (docs/sign-in.md).
 */
export function clientErrorHandlerOf(basePath: string, edge: SocketEdge, auth?: AuthPages) {
  const isFhir = (url: string): boolean => url.startsWith(basePath) && isFhirPath(url.slice(basePath.length));
  return (err: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Socket): void => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const { status, reason, message } = refusalOf(err.code);
    const refused = requestIn(err.rawPacket);
    const reqId = edge.requestId();
    // The line of a request no route matched: src/http/logging.ts writes its path as a marker and a length.
    edge.logger.info({
      reqId, req: { method: refused?.method, url: refused?.url ?? '', ip: socket.remoteAddress }, res: { statusCode: status }, refusal: err.code ?? 'unknown',
    }, 'request completed');
    if (auth !== undefined && (status === 431 || status === 400) && refused !== undefined && underMount(refused.url, auth.mountPath)) {
      const page = auth.refusedPage(refused, status);
      endWith(socket, status, reason, { ...page.headers, 'x-request-id': reqId }, page.body, refused.method);
      return;
    }
    const fhir = refused !== undefined && isFhir(refused.url);
    const headers = {
      ...edge.securityFields('encrypted' in socket), 'x-request-id': reqId, 'cache-control': 'no-store',
      'content-type': fhir ? FHIR_JSON : 'application/json; charset=utf-8',
    };
    endWith(socket, status, reason, headers, JSON.stringify(fhir ? operationOutcome(status, message) : { statusCode: status, message }), refused?.method);
  };
}

/** What Fastify's routing errors say: fixed texts, nothing of the URL echoed. */
const URL_FAULTS: Readonly<Record<string, string>> = {
  FST_ERR_MAX_PARAM_LENGTH: 'A path segment is longer than 100 characters: an id is 1 to 64 letters, digits, \'-\' or \'.\'.',
};

type Answering = (request: FastifyRequest, reply: FastifyReply) => void;

/**
 * What the app's hooks give every answer (src/http/app.ts), which the router's refusals skip: the request
 * id and nosniff, the API's security headers (not on an authorization page, which has its own), the log line.
 */
export interface AnswerEdge { ownHeaders: Answering; securityHeaders: Answering; logAnswered: Answering }

/**
 * Errors Fastify raises while routing, before any route is chosen (a malformed percent-encoding, a path
 * segment over the router's 100 characters): 400 with a fixed text, in the shape of the path's door as
 * every other error (src/http/error-body.ts), so an over-long id below /fhir is an OperationOutcome as a
 * shorter bad id is (issue 52 item 12); under the authorization server's mount path, its own page.
 */
export function frameworkErrorsOf(basePath: string, clock: Clock, edge: AnswerEdge, auth?: AuthPages) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    reply.raw.once('finish', () => edge.logAnswered(request, reply));
    edge.ownHeaders(request, reply);
    if (auth !== undefined && underMount(request.url, auth.mountPath)) {
      const page = auth.refusedPage({ url: request.url, headers: request.headers }, 400);
      void reply.code(400).headers(page.headers).send(page.body);
      return;
    }
    edge.securityHeaders(request, reply);
    const shape = answerShapeOf(request, basePath);
    if (shape === 'fhir') reply.type(FHIR_JSON);
    const message = URL_FAULTS[error.code] ?? 'The request URL is malformed.';
    void reply.code(400).header('cache-control', 'no-store').send(errorBody(request, 400, message, clock.now(), shape));
  };
}

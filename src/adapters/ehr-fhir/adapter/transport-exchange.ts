/**
 * The FhirExchange of the adapter over the shared EHR HTTP transport (src/adapters/ehr-http: pool,
 * deadline, one retry of a read, breaker, TLS), so FHIR and legacy XML travel the same way. The
 * EHR's own failures (5xx, 408, 429) are judged inside the breaker, so they count against the
 * EHR; what the other statuses mean (a refusal, a conflict of a write) is the client's to decide.
 */
import { EhrError } from '../../../domain/ehr-error.js';
import { isContentType, isWrite, NoConnectionInTimeError, type MediaType } from '../../ehr-http/exchange.js';
import { untilAborted } from '../../http-client/until-aborted.js';
import { statusFailure } from '../../ehr-http/status.js';
import type { EhrHttpTransport } from '../../ehr-http/transport.js';
import { FHIR_JSON, type FhirExchange } from '../client/fhir-exchange.js';
import { fhirFault } from '../fault.js';

/** FHIR JSON in UTF-8 (an HTML page of a front proxy is refused unread). */
export const FHIR_MEDIA: MediaType = {
  accept: FHIR_JSON,
  body: FHIR_JSON,
  readable: (contentType) => isContentType(contentType, [FHIR_JSON, 'application/json']),
};

/** An OperationOutcome is read for its issues' severity and code only; a little of it is enough. */
const OUTCOME_BYTES = 64 * 1024;

/**
 * Which bodies are read: a 200's or 201's in full (up to the cap), a refusal's OperationOutcome a
 * little. Conflicts of a write and the EHR's own failures are decided on the status alone.
 */
export function fhirBodyLimit(status: number, maxBodyBytes: number): number {
  if (status === 200 || status === 201) return maxBodyBytes;
  if (status >= 400 && status < 500 && ![408, 409, 412, 429].includes(status)) return OUTCOME_BYTES;
  return 0;
}

const isEhrFailure = (status: number): boolean => status >= 500 || status === 408 || status === 429;

/**
 * Rejects with `timeout` when the port call's deadline passes first (EHR_TIMEOUT_MS bounds the call as a
 * whole), or, for a read, `unreachable` when by then the EHR had not taken a connection for half of it. A
 * write may have gone on a connection it had: a timeout, whatever others were doing (exchange.ts isWrite).
 * Never "not sent" here, though none of it may have left yet (ehr-http/sending.ts): this deadline does not end
 * the transport's call, which may still send the write after it (hostile review helper-140, F1).
 */
function withinDeadline<T>(work: Promise<T>, signal: AbortSignal | undefined, transport: EhrHttpTransport, write: boolean): Promise<T> {
  if (signal === undefined) return work;
  return untilAborted(work, signal, () => (transport.stuckConnecting() && !write ? new NoConnectionInTimeError()
    : new EhrError('timeout', 'FHIR call exceeded its deadline', undefined, write)));
}

/** FHIR_AUTH=smart-backend: the Authorization header of each request, and what to do when the server refuses it. */
export interface Authorization {
  /** Asked for anew for each request, so an expired token is never sent. */
  header(): Promise<string>;
  /** The server answered 401: the token is not to be sent again. */
  refused(): void;
}

export function transportExchange(transport: EhrHttpTransport, baseUrl: string, authorization?: Authorization): FhirExchange {
  const origin = new URL(baseUrl).origin;
  return async (url, init) => {
    const target = new URL(url);
    const below = target.pathname === transport.prefix || target.pathname.startsWith(`${transport.prefix}/`);
    if (target.origin !== origin || !below) throw fhirFault('a URL outside the FHIR base');
    const headers = { ...init.headers, ...(authorization === undefined ? {} : { authorization: await authorization.header() }) };
    const request = {
      method: init.method, path: target.pathname.slice(transport.prefix.length) + target.search, headers,
      ...(init.body === undefined ? {} : { body: init.body }),
      // A write is never sent twice: the first may have been committed.
      retryOnConnectionLoss: init.method === 'GET',
    };
    return withinDeadline(transport.call(request, (answer) => {
      if (isEhrFailure(answer.status)) throw statusFailure(answer.status, answer.headers);
      if (answer.status === 401) authorization?.refused();
      return answer;
    }, fhirBodyLimit), init.signal, transport, isWrite(request));
  };
}

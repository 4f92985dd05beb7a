/**
 * What an EHR's HTTP status means for the port when it is not the answer an adapter reads, whatever
 * the EHR's format (docs/contract.md#errors). Every reason is fixed text of this service: the EHR's
 * own words may hold an identity number and never pass on.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { EhrError } from '../../domain/ehr-error.js';
import { AnswerFaultError } from './answer-fault.js';

/**
 * The EHR refused this one request (a 4xx other than 408): it is up and answering, so the refusal
 * is a bad answer for the caller but no reason to open the circuit breaker.
 */
export class RequestRefusedError extends AnswerFaultError {
  constructor(readonly status: number) {
    super(`EHR refused the request with status ${status}`);
  }
}

/** Seconds a 503 asks for, when the header is a plain number of seconds in a believable range. */
const DEFAULT_RETRY_AFTER_S = 5;
const MAX_RETRY_AFTER_S = 3600;

export function retryAfterSeconds(headers: IncomingHttpHeaders): number {
  const raw = headers['retry-after'];
  const value = typeof raw === 'string' ? raw.trim() : '';
  if (!/^\d{1,5}$/.test(value)) return DEFAULT_RETRY_AFTER_S;
  const seconds = Number(value);
  return seconds >= 1 && seconds <= MAX_RETRY_AFTER_S ? seconds : DEFAULT_RETRY_AFTER_S;
}

/**
 * The failure a status stands for: 503 and 429 unavailable (with the Retry-After asked for), 5xx and
 * 408 (the EHR timed out) a bad response that counts against it, a redirect (never followed) or
 * any other 4xx a fault of this answer alone.
 */
export function statusFailure(status: number, headers: IncomingHttpHeaders): EhrError {
  if (status === 503 || status === 429) return new EhrError('unavailable', `EHR unavailable (status ${status})`, retryAfterSeconds(headers));
  if (status >= 300 && status < 400) return new AnswerFaultError(`EHR answered a redirect (status ${status}); not followed`);
  if (status >= 400 && status < 500 && status !== 408) return new RequestRefusedError(status);
  if (status >= 500 || status === 408) return new EhrError('bad-response', `EHR answered status ${status}`);
  return new AnswerFaultError(`EHR answered status ${status}`);
}

/**
 * What an EHR answer means for the port (CONTRACT §3). Every reason is fixed text of this service:
 * the EHR's own words (Fault Message, an HTML page) may hold an identity number and never pass on.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { EhrError } from '../../ports/ehr-records.port.js';
import { MalformedDocumentError, mapFault } from '../ehr-xml/index.js';
import { isTrimSpace } from '../ehr-xml/xml-text.js';
import { AnswerFaultError } from './answer-fault.js';
import type { UpstreamAnswer } from './exchange.js';

/**
 * The EHR refused this one request (a 4xx other than not-found): it is up and answering, so the
 * refusal is a bad answer for the caller but no reason to open the circuit breaker.
 */
export class RequestRefusedError extends AnswerFaultError {
  constructor(status: number) {
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

/** How much body is worth reading for a status: documents in full up to the cap, a 404 for its Fault code. */
export function bodyLimitFor(status: number, maxBodyBytes: number): number {
  if (status === 200) return maxBodyBytes;
  if (status === 404) return 64 * 1024;
  return 0;
}

function isPatientNotFound(body: Buffer | undefined): boolean {
  if (body === undefined) return false;
  try {
    return mapFault(body).code === 'PATIENT_NOT_FOUND';
  } catch (err) {
    if (err instanceof MalformedDocumentError) return false;
    throw err;
  }
}

/**
 * Whether the body is nothing but whitespace, as String.prototype.trim sees it. A document's first
 * byte settles it; only a body that starts with a non-ASCII character other than the BOM is decoded.
 */
function isBlank(body: Buffer): boolean {
  const from = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf ? 3 : 0;
  for (let i = from; i < body.length; i++) {
    const b = body[i] as number;
    if (b >= 0x80) return body.toString('utf8').trim() === '';
    if (!isTrimSpace(b)) return false;
  }
  return true;
}

/**
 * The document (bytes) of a 200 answer, or the EhrError the answer stands for. `patientPath`: only
 * a 404 on a /patients/ path can mean an unknown patient (README §2).
 */
export function documentOf(answer: UpstreamAnswer, patientPath: boolean): Buffer {
  const { status } = answer;
  if (status === 200) {
    if (answer.body === undefined || isBlank(answer.body)) throw new AnswerFaultError('EHR answer is empty');
    return answer.body;
  }
  if (status === 404 && patientPath && isPatientNotFound(answer.body)) {
    throw new EhrError('patient-not-found', 'unknown patient');
  }
  if (status === 503 || status === 429) {
    throw new EhrError('unavailable', `EHR unavailable (status ${status})`, retryAfterSeconds(answer.headers));
  }
  if (status >= 300 && status < 400) throw new AnswerFaultError(`EHR answered a redirect (status ${status}); not followed`);
  if (status >= 400 && status < 500 && status !== 408) throw new RequestRefusedError(status);
  // 5xx and 408 (the EHR timed out) count against it; any other status is this answer's fault.
  if (status >= 500 || status === 408) throw new EhrError('bad-response', `EHR answered status ${status}`);
  throw new AnswerFaultError(`EHR answered status ${status}`);
}

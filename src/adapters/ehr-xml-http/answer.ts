/**
 * What an answer of the legacy EHR means for the port (docs/contract.md#errors): a 200's document,
 * an unknown patient's Fault, or the failure its status stands for. The EHR's own words (Fault
 * Message, an HTML page) may hold an identity number and never pass on.
 */
import { EhrError } from '../../domain/ehr-error.js';
import { AnswerFaultError } from '../ehr-http/answer-fault.js';
import type { UpstreamAnswer } from '../ehr-http/exchange.js';
import { statusFailure } from '../ehr-http/status.js';
import { MalformedDocumentError, mapFault } from '../ehr-xml/index.js';
import { isTrimSpace } from '../ehr-xml/xml-text.js';

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
 * a 404 on a /patients/ path can mean an unknown patient (docs/upstream-ehr.md#2-requests-and-answers).
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
  throw statusFailure(status, answer.headers);
}

/** `interpret`'s result; a malformed document is this answer's fault alone. */
export async function readable<T>(interpret: () => T | Promise<T>): Promise<T> {
  try {
    return await interpret();
  } catch (err) {
    if (err instanceof MalformedDocumentError) throw untrusted(err);
    throw err;
  }
}

/** The mapper's reason is fixed text, but only the distinction a human must act on is passed on (threat 29 of docs/threat-model.md#the-upstream-ehr-api10). */
function untrusted(err: MalformedDocumentError): EhrError {
  return /another patient/.test(err.message)
    ? new AnswerFaultError('EHR answered a record of another patient')
    : new AnswerFaultError('EHR document is malformed');
}

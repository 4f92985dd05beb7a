/**
 * Validators and conditional GETs of patient documents, as a real EHR answers them (RFC 9110 §8.8,
 * §13.1, §13.2.2): a strong ETag made from the bytes of the answer, Last-Modified from the file (none
 * for an empty answer of a missing file), and 304 Not Modified, with no body, when the request's
 * preconditions say the caller has the document already. If-None-Match, when sent, decides alone;
 * If-Modified-Since only without it, and only when it is a date and the answer has a file's time.
 */
import { createHash } from 'node:crypto';
import { dateOf } from '../../adapters/ehr-http/validators.js';
import { bytesOf, type Answer } from './xml-answers.js';

/** The preconditions of a GET, as sent. */
export interface Conditions {
  ifNoneMatch?: string;
  ifModifiedSince?: string;
}

/** A strong entity tag of exactly these bytes. */
export const etagOf = (bytes: Buffer): string => `"${createHash('sha256').update(bytes).digest('base64url')}"`;

/** The opaque part of an entity tag, for the weak comparison If-None-Match asks for (RFC 9110 §8.8.3.2). */
const opaque = (tag: string): string => (tag.startsWith('W/') ? tag.slice(2) : tag);

/** Whether If-None-Match (`*` or a list of entity tags) names `etag`. */
function noneMatchNames(field: string, etag: string): boolean {
  if (field.trim() === '*') return true;
  const wanted = opaque(etag);
  return (field.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => opaque(tag) === wanted);
}

/** Whether the caller has the representation: If-None-Match when sent, else If-Modified-Since against a file's time. */
export function callerHasIt(conditions: Conditions, etag: string, modifiedMs: number | undefined): boolean {
  if (conditions.ifNoneMatch !== undefined) return noneMatchNames(conditions.ifNoneMatch, etag);
  if (conditions.ifModifiedSince === undefined || modifiedMs === undefined) return false;
  // Not an HTTP date (Date.parse would read `2099` as one): ignored, as RFC 9110 §13.1.3 asks (helper-153, F4).
  const since = dateOf(conditions.ifModifiedSince);
  // HTTP dates have whole seconds: a file changed within the second named is not modified since it.
  return since !== undefined && Math.floor(modifiedMs / 1000) * 1000 <= since;
}

/**
 * `answer` (a 200 document) with its validators, or a 304 with the same validators and no body when
 * the caller has it. `modifiedMs`: the file's modification time, undefined for an empty answer.
 */
export function validated(answer: Answer, conditions: Conditions, modifiedMs: number | undefined, etag?: string): Answer {
  const bytes = bytesOf(answer);
  const tag = etag ?? etagOf(bytes);
  const headers = { etag: tag, ...(modifiedMs === undefined ? {} : { 'last-modified': new Date(modifiedMs).toUTCString() }) };
  if (callerHasIt(conditions, tag, modifiedMs)) return { status: 304, body: '', headers };
  return { ...answer, bytes, headers: { ...answer.headers, ...headers } };
}

/**
 * Conditional GETs (issue 56 item 2): the one validator of an EHR's answer that a later GET of the
 * same document may be made conditional on, the precondition that asks about it, and whether a 304
 * Not Modified is about that very document (RFC 9110 §8.8, §13.1, §13.2; RFC 9111 §4.3.4). A
 * validator is an ETag (strong or weak: If-None-Match compares weakly) or, without one, a
 * Last-Modified the answer's own Date shows to be strong; whatever cannot be read as one exactly is
 * no validator, and the document is then fetched in full every time, as from an EHR that sends none.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** One entity tag of visible ASCII (RFC 9110 §8.8.3; obs-text is refused rather than sent back), weak or strong. */
const ENTITY_TAG = /^(?:W\/)?"[\x21\x23-\x7e]*"$/;
/** Longer tags are no validator: a header sent back to the EHR stays small. */
const MAX_TAG_LENGTH = 256;
/** IMF-fixdate (RFC 9110 §5.6.7), the one form an HTTP date is sent in. */
const HTTP_DATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** A header's one value; a repeated header is none. */
function single(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

const isEntityTag = (value: string | undefined): value is string =>
  value !== undefined && value.length <= MAX_TAG_LENGTH && ENTITY_TAG.test(value);

/**
 * An HTTP date (IMF-fixdate) in milliseconds; undefined for anything else, which a recipient ignores (RFC
 * 9110 §13.1.3). Written back, it must be the same text: Date.parse reads year 0030 as 2030 and rolls
 * 31 November or 24:00 over to the next day, where neither is a date (helper-156, F4).
 */
export const dateOf = (value: string | undefined): number | undefined => {
  if (value === undefined || !HTTP_DATE.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && new Date(ms).toUTCString() === value ? ms : undefined;
};

/** The opaque part of an entity tag: If-None-Match and the selection of a 304 compare weakly (RFC 9110 §8.8.3.2). */
const opaque = (tag: string): string => (tag.startsWith('W/') ? tag.slice(2) : tag);

/**
 * The validator a later GET of this answer's document may be made conditional on: its ETag, else its
 * Last-Modified when the answer's Date is at least a second later (a document changed again within
 * the second it names would otherwise look unchanged: RFC 9110 §8.8.2.2); undefined when there is
 * neither, or when the EHR says the answer may not be stored (`Cache-Control: no-store`).
 */
export function validatorOf(headers: IncomingHttpHeaders): string | undefined {
  const cacheControl = headers['cache-control'];
  const directives = Array.isArray(cacheControl) ? cacheControl.join(',') : cacheControl ?? '';
  if (directives.split(',').some((d) => d.trim().toLowerCase() === 'no-store')) return undefined;
  const etag = single(headers, 'etag');
  if (isEntityTag(etag)) return etag;
  if (etag !== undefined) return undefined;
  const lastModified = single(headers, 'last-modified');
  const modified = dateOf(lastModified);
  const date = dateOf(single(headers, 'date'));
  return modified !== undefined && date !== undefined && date - modified >= 1000 ? lastModified : undefined;
}

const isTag = (validator: string): boolean => validator.startsWith('"') || validator.startsWith('W/"');

/** The precondition asking whether the document is still the one `validator` names. */
export function preconditionOf(validator: string): Record<string, string> {
  return isTag(validator) ? { 'if-none-match': validator } : { 'if-modified-since': validator };
}

/**
 * Whether a 304 answering the precondition of `validator` is about the document kept under it: every
 * validator the 304 carries must be that one (RFC 9111 §4.3.4: a 304 selects the stored answer whose
 * validator it carries). To If-None-Match, an ETag it has must be the one sent, weakly compared; to
 * If-Modified-Since (the kept answer had no ETag), it may carry no ETag, and a Last-Modified only the
 * one sent. A 304 naming another document is not taken as news of the kept one.
 */
export function confirms(headers: IncomingHttpHeaders, validator: string): boolean {
  const etag = headers.etag;
  if (isTag(validator)) return etag === undefined || (typeof etag === 'string' && isEntityTag(etag) && opaque(etag) === opaque(validator));
  const lastModified = headers['last-modified'];
  return etag === undefined && (lastModified === undefined || lastModified === validator);
}

/**
 * Every read of a remote EHR is its answer of that moment: a delegation, a protection mark, an arrival window or a
 * payment is decided on it (docs/upstream-ehr.md#7-conditional-requests). A cache in between must ask the EHR again
 * (a cache that did not kept an ended power of attorney paying and checked in a booking staff had moved: hostile
 * review helper-192, F1/F2), and an answer it made itself is not taken: RFC 9111 lets a cache answer from its copy when
 * it cannot reach the EHR, whatever the request asked (re-review helper-194, F1). What this service keeps of a
 * document, it keeps by validators the EHR itself confirms (a conditional GET answered 304).
 */

/** The headers of every GET: `Cache-Control` for HTTP/1.1 caches, `Pragma` for those of HTTP/1.0 (RFC 9111 §5.4). */
export const PAST_CACHES: Readonly<Record<string, string>> = { 'cache-control': 'no-cache', pragma: 'no-cache' };

/**
 * Whether a cache in between made this answer rather than passing the EHR's on: an `Age` header other than 0 (RFC 9111
 * §5.1: it was not generated or validated by the origin for this request). One that cannot be read counts as one.
 */
export function madeByCache(age: string | string[] | undefined): boolean {
  if (age === undefined) return false;
  return !/^\s*0\s*$/.test(Array.isArray(age) ? age.join(',') : age);
}

/**
 * Issue 56 item 2: which validator of an EHR's answer a later GET may be made conditional on, the
 * precondition sent with it, and whether a 304 is about the document kept (RFC 9110 §8.8, §13.1,
 * RFC 9111 §4.3.4). Anything it cannot read is no validator: the document is then fetched in full.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { confirms, preconditionOf, validatorOf } from '../../../src/adapters/ehr-http/validators.js';

const MODIFIED = 'Tue, 24 Nov 2026 08:00:00 GMT';
const LATER = 'Tue, 24 Nov 2026 08:00:01 GMT';

describe('the validator of an answer', () => {
  it('is its ETag, strong or weak, before its Last-Modified', () => {
    expect(validatorOf({ etag: '"abc"', 'last-modified': MODIFIED, date: LATER })).toBe('"abc"');
    expect(validatorOf({ etag: 'W/"abc"' })).toBe('W/"abc"');
    expect(validatorOf({ etag: '""' })).toBe('""');
  });

  it('is no ETag that is not one entity tag of visible ASCII', () => {
    for (const etag of ['abc', '"a"b"', '"a", "b"', '"a b"', 'w/"a"', '"å"', `"${'x'.repeat(600)}"`, ['"a"', '"b"']]) {
      expect([etag, validatorOf({ etag } as IncomingHttpHeaders)]).toEqual([etag, undefined]);
    }
  });

  it('is its Last-Modified without an ETag only when its Date is a second or more later (RFC 9110 §8.8.2.2)', () => {
    expect(validatorOf({ 'last-modified': MODIFIED, date: LATER })).toBe(MODIFIED);
    expect(validatorOf({ 'last-modified': MODIFIED, date: MODIFIED })).toBeUndefined();
    expect(validatorOf({ 'last-modified': MODIFIED })).toBeUndefined();
    expect(validatorOf({ 'last-modified': 'Tuesday, 24-Nov-26 08:00:00 GMT', date: LATER })).toBeUndefined();
    expect(validatorOf({ 'last-modified': MODIFIED, date: 'soon' })).toBeUndefined();
  });

  it('is none when the answer may not be stored', () => {
    expect(validatorOf({ etag: '"abc"', 'cache-control': 'private, No-Store' })).toBeUndefined();
    expect(validatorOf({ etag: '"abc"', 'cache-control': 'no-cache' })).toBe('"abc"');
    expect(validatorOf({})).toBeUndefined();
  });
});

describe('the precondition and the 304', () => {
  it('asks If-None-Match of an ETag and If-Modified-Since of a date', () => {
    expect(preconditionOf('W/"abc"')).toEqual({ 'if-none-match': 'W/"abc"' });
    expect(preconditionOf(MODIFIED)).toEqual({ 'if-modified-since': MODIFIED });
  });

  it('takes a 304 as about the kept document when its ETag, if it has one, is the one sent, weakly compared', () => {
    expect(confirms({}, '"abc"')).toBe(true);
    expect(confirms({ etag: '"abc"' }, '"abc"')).toBe(true);
    expect(confirms({ etag: 'W/"abc"' }, '"abc"')).toBe(true);
    expect(confirms({ etag: '"abc"' }, 'W/"abc"')).toBe(true);
    expect(confirms({ etag: '"abd"' }, '"abc"')).toBe(false);
    expect(confirms({ etag: 'abc' }, '"abc"')).toBe(false);
  });

  it('takes a 304 to If-Modified-Since as about the kept document only without an ETag and with the same time, if any', () => {
    expect(confirms({}, MODIFIED)).toBe(true);
    expect(confirms({ 'last-modified': MODIFIED }, MODIFIED)).toBe(true);
    expect(confirms({ 'last-modified': LATER }, MODIFIED)).toBe(false);
    expect(confirms({ etag: '"abc"' }, MODIFIED)).toBe(false);
  });
});

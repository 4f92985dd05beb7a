import { describe, expect, it } from 'vitest';
import { redactAttribute, redactAttributesInPlace, redactText } from '../../src/tracing/redact-span.js';
import { identityNumbersIn, tokensIn } from '../support/log-grep.js';
import { FOUND_PATHS } from '../support/identity-paths.js';

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJwYXRpZW50IjoiMTkxMjEyMTIxMjEyIn0.c2lnbmF0dXJl';

describe('issue 15 item 3: what a span may carry', () => {
  it('identity numbers and JWTs in any text are replaced', () => {
    expect(redactText('/ehr/v1/patients/191212121212/bookings')).toBe('/ehr/v1/patients/[REDACTED]/bookings');
    expect(redactText('for 19121212-1212 and 121212-1212')).toBe('for [REDACTED] and [REDACTED]');
    expect(redactText(`Bearer ${TOKEN}`)).toBe('Bearer [REDACTED]');
    expect(redactText('GET /patients/appointments/')).toBe('GET /patients/appointments/');
  });

  it('URLs lose their query and fragment (a subscription key may ride there); the query attribute goes entirely', () => {
    expect(redactAttribute('url.full', 'http://ehr/ehr/v1/patients/191212121212/x?subscription-key=abc#f')).toBe('http://ehr/ehr/v1/patients/[REDACTED]/x');
    expect(redactAttribute('url.path', '/patients/appointments/?subscription-key=secret-key-123456')).toBe('/patients/appointments/');
    expect(redactAttribute('http.target', '/a?b')).toBe('/a');
    expect(redactAttribute('url.query', 'subscription-key=abc')).toBeUndefined();
  });

  it('headers, query parameters and stack traces are dropped; numbers and booleans pass', () => {
    expect(redactAttribute('http.request.header.authorization', [`Bearer ${TOKEN}`])).toBeUndefined();
    expect(redactAttribute('http.request.header.ocp-apim-subscription-key', ['k'])).toBeUndefined();
    expect(redactAttribute('db.query.parameter.0', '191212121212')).toBeUndefined();
    expect(redactAttribute('exception.stacktrace', 'Error: x\n    at y')).toBeUndefined();
    expect(redactAttribute('http.response.status_code', 200)).toBe(200);
    expect(redactAttribute('db.query.text', 'SELECT 1 WHERE id = 191212121212')).toBe('SELECT 1 WHERE id = [REDACTED]');
  });

  it('rewrites an attribute map in place, arrays included', () => {
    const attributes = { 'url.full': 'http://x/p/191212121212?k=v', tags: ['ok', '191212121212'], 'url.query': 'k=v', n: 1 };
    redactAttributesInPlace(attributes);
    expect(attributes).toEqual({ 'url.full': 'http://x/p/[REDACTED]', tags: ['ok', '[REDACTED]'], n: 1 });
  });

  it('issue 34 item 6: url.path, http.target and url.full of a server or client span are scrubbed however the path spells the number or token', () => {
    const leaking = FOUND_PATHS.flatMap((path) => ['url.path', 'http.target', 'url.full', 'http.url']
      .map((key) => [key, path, String(redactAttribute(key, key.endsWith('full') || key === 'http.url' ? `http://ehr.example${path}?q=1` : `${path}?q=1`))] as const))
      .filter(([, , value]) => identityNumbersIn(value).length + tokensIn(value).length > 0);
    expect(leaking).toEqual([]);
    expect(redactAttribute('url.path', '/x/%20191212121212?subscription-key=k')).toBe('/x/ [REDACTED]');
  });
});

/**
 * docs/threat-model.md row 53: every absolute URL the FHIR API writes (`fullUrl`, `self` and `next`
 * links, the CapabilityStatement's, SMART discovery's) comes from PUBLIC_BASE_URL, never from the
 * request's `Host` or `X-Forwarded-*` headers, which a caller (or anything before the service) sets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_PUBLIC_BASE_URL, type TestApp } from '../../support/test-app.js';
import { get, NOW, smartToken, TOLVAN } from './fhir-calls.js';

const FORGED = {
  host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http', 'x-forwarded-prefix': '/evil', forwarded: 'host=evil.example;proto=http',
};

/** Every string in a JSON answer that looks like an absolute URL. */
const urlsIn = (body: string): string[] => [...body.matchAll(/"(https?:\/\/[^"]+)"/g)].map((m) => m[1] as string);

describe('FHIR API: absolute URLs come from PUBLIC_BASE_URL alone', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW });
  }, 60_000);
  afterAll(async () => t.close());

  it('a search\'s fullUrls and links, and discovery, name the configured base whatever Host and X-Forwarded-* say', async () => {
    const token = await smartToken(t, TOLVAN, 'patient/*.read');
    const answers = [
      await get(t, '/fhir/Observation?_count=2', token, FORGED),
      await get(t, '/api/open/fhir/Condition?_count=1', token, FORGED),
      await get(t, '/fhir/metadata', undefined, FORGED),
    ];
    const urls = answers.flatMap((a) => {
      expect(a.statusCode, a.body.slice(0, 200)).toBe(200);
      return urlsIn(a.body).filter((u) => !u.startsWith('http://terminology.hl7.org') && !u.startsWith('http://hl7.org'));
    });
    const ours = urls.filter((u) => /\/fhir(\/|\?|$)/.test(u));
    expect(ours.length).toBeGreaterThan(5);
    expect(ours.filter((u) => !u.startsWith(`${TEST_PUBLIC_BASE_URL}/fhir`))).toEqual([]);
    expect(urls.filter((u) => u.includes('evil'))).toEqual([]);
    const next = JSON.parse(answers[0]?.body ?? '{}') as { link: { relation: string; url: string }[] };
    expect(next.link.find((l) => l.relation === 'next')?.url.startsWith(`${TEST_PUBLIC_BASE_URL}/fhir/Observation?`)).toBe(true);
  });
});

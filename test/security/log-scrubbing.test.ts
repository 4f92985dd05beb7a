import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MID_2025, TOLVAN } from '../adapters/ehr-fhir/support/demo-bundle.js';
import { fhirReply, on, type FhirProxy } from '../adapters/ehr-fhir/support/fhir-proxy.js';
import { startFhirTestApp, type FhirTestApp } from '../support/fhir-test-app.js';
import { startTestAppOn, type AnyTestApp } from '../support/test-app.js';
import { FOUND_PATHS, identityPath, METHODS } from '../support/identity-paths.js';
import { identityNumbersIn, leaksInLine, stringsOf } from '../support/log-grep.js';
import { overBothEhrs, runsOver, STEADY } from './support/runs.js';
import { malformedLogLines } from './support/logs.js';
import { DEMO_PEOPLE, DEMO } from './support/oracles.js';
import { assertProperty } from '../support/seeds.js';

/**
 * Threats 34 and 50 of docs/threat-model.md (issue 34 item 6): whatever path, method and query a
 * caller sends, with or without credentials, no log line holds an identity number (however the path
 * spells it: percent-encoded once or more, fullwidth, with separators, invisible characters or digits
 * around it) or a token. The grep reads every string of every line as written and decoded
 * (test/support/log-grep.ts), so a number the service left encoded is found.
 */
overBothEhrs((variant) => {
  describe('issue 34 item 6: no identity number or token in any log line, whatever the path (threat 50)', () => {
    let t: AnyTestApp;
    let token: string;
    const leaks = (lines: readonly string[], known: readonly string[]): string[] => lines.flatMap((line) => leaksInLine(line, [...known, ...DEMO_PEOPLE]));

    beforeAll(async () => {
      t = await startTestAppOn(variant, { ...STEADY, rateLimitMax: 100_000, rateLimitNoKeyMax: 100_000 });
      token = await t.personToken(DEMO.TOLVAN);
    });
    afterAll(() => t.close());

    it('the paths the review found logged verbatim, by every method, with and without credentials', async () => {
      for (const url of FOUND_PATHS) {
        for (const method of METHODS) {
          await t.call({ method, url, token });
          await t.call({ method, url: `${url}?access_token=${token}`, key: null });
        }
      }
      expect(t.logLines.length).toBeGreaterThan(FOUND_PATHS.length * METHODS.length);
      expect(leaks(t.logLines, [])).toEqual([]);
      expect(malformedLogLines(t.logLines)).toEqual([]);
    });

    it('a seeded fuzz of paths holding valid identity numbers in random encodings, separators, prefixes, methods and queries (property)', async () => {
      await assertProperty(fc.asyncProperty(identityPath(), fc.boolean(), async ({ id, path, method }, credentials) => {
        const from = t.logLines.length;
        await t.call({ method, url: path, ...(credentials ? { token } : { key: null }) });
        expect(t.logLines.length).toBeGreaterThan(from);
        expect(leaks(t.logLines.slice(from), [id])).toEqual([]);
      }), { seeds: [34_50, 3451, 3452], numRuns: runsOver(variant, 400) });
      expect(malformedLogLines(t.logLines)).toEqual([]);
    });
  });
});

/**
 * Issue 34 item 6, the other way in: a hostile FHIR server's own words (a resourceType, an
 * OperationOutcome's issues, the CapabilityStatement's fhirVersion), with an ANSI escape, another
 * person's number and a marker in them, reach no log line and no event the service logs (the
 * composition root logs every adapter event, src/start/adapter-selection.ts): only this service's fixed
 * text or a strictly validated value.
 */
describe('issue 34 item 6: a hostile FHIR server\'s words in no log line or logged event (fhir-r4)', () => {
  const OTHER = '198112189876';
  const HOSTILE = `\u001b[31m${OTHER} EVIL\u001b[0m`;
  const NOTES = '/patients/journalnotes/?fromDateTime=2025-01-01T00:00:00';
  let t: FhirTestApp;
  let token: string;

  let linesBefore = 0;
  let eventsBefore = 0;
  /** Every string the service wrote about this test's request: its log lines and the adapter's events. */
  const written = (): string[] => [
    ...t.logLines.slice(linesBefore).flatMap((line) => stringsOf(JSON.parse(line))), ...stringsOf(t.events.slice(eventsBefore)),
  ];
  const upstreamWords = (): string[] => written().filter((s) => /\p{Cc}|EVIL/u.test(s.replace(/\n/g, '')) || identityNumbersIn(s).includes(OTHER));
  const withJson = (where: string, change: (json: Record<string, unknown>) => Record<string, unknown>, status?: number) =>
    on(where, (reply) => fhirReply(status ?? reply.status, change(JSON.parse(reply.body.toString()) as Record<string, unknown>)));

  beforeAll(async () => {
    t = await startFhirTestApp({ proxied: true, now: MID_2025 });
    const issuedAt = Math.floor(t.clock.now() / 1000);
    token = await t.personToken(TOLVAN, { iat: issuedAt, exp: issuedAt + 3600 });
  });
  beforeEach(() => {
    [linesBefore, eventsBefore] = [t.logLines.length, t.events.length];
  });
  afterEach(() => {
    (t.proxy as FhirProxy).hook = undefined;
  });
  afterAll(() => t.close());

  it('a CapabilityStatement whose fhirVersion holds a number and words: judged, never repeated; with an escape, refused, never repeated', async () => {
    // A control character is no FHIR string: the whole answer is refused before it is judged (helper-213, H8).
    (t.proxy as FhirProxy).hook = withJson('/metadata', (json) => ({ ...json, fhirVersion: `${OTHER} EVIL` }));
    await t.ehr.ping();
    expect(t.events.some((e) => e.type === 'capability-version')).toBe(true);
    expect(upstreamWords()).toEqual([]);
    (t.proxy as FhirProxy).hook = withJson('/metadata', (json) => ({ ...json, fhirVersion: HOSTILE }));
    await t.ehr.ping().catch(() => undefined);
    expect(upstreamWords()).toEqual([]);
  });

  it('an included resource of a resourceType that is no FHIR type, naming another patient: 502, and the type named by no line', async () => {
    (t.proxy as FhirProxy).hook = withJson('/Composition?', (json) => ({
      ...json,
      entry: [...(json.entry as unknown[] ?? []), {
        fullUrl: 'urn:uuid:9d6f0c3e-1b7a-4f3e-9a51-0c2f6a8e4d21', search: { mode: 'include' },
        resource: { resourceType: HOSTILE, id: 'x1', subject: { reference: 'Patient/someone-else' } },
      }],
    }));
    expect((await t.call({ method: 'GET', url: NOTES, token })).statusCode).toBe(502);
    expect(t.logLines.some((line) => line.includes('request failed'))).toBe(true);
    expect(upstreamWords()).toEqual([]);
  });

  it('an OperationOutcome whose severity, code and diagnostics hold an escape, a number and words: neither told nor logged', async () => {
    (t.proxy as FhirProxy).hook = on('/Composition?', () => fhirReply(422, {
      resourceType: 'OperationOutcome', issue: [{ severity: HOSTILE, code: HOSTILE, diagnostics: HOSTILE }],
    }));
    expect((await t.call({ method: 'GET', url: NOTES, token })).statusCode).toBe(502);
    expect(t.events.some((e) => e.type === 'refusal')).toBe(true);
    expect(upstreamWords()).toEqual([]);
  });
});

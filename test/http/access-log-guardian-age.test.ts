/**
 * Issue 34 item 11b: the guardian age limit covers the access log too (docs/contract.md#the-patients-access-log):
 * past the age the release policy names for `getAccessLog`, a guardian (and a client token, for a
 * minor) no longer sees which apps and people read the child's record. As for another read whose
 * whole answer the age limit takes: 200 with nothing in it (an empty page, an empty Bundle), no next
 * page, `Patient-Data-Filtered: true`, and the audit record counting what was withheld.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/start/config.js';
import type { OutcomeRecord } from '../../src/ports/audit-trail.port.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';

const GUARDIAN = '198112189876';
/** Lilla, born 1 January 2017: 9 years old on NOW. */
const CHILD = '201701012393';
const NOW = Date.UTC(2026, 10, 21, 8, 0);
const LOG = '/patients/accesslog/';
const FILTERED = 'patient-data-filtered';

describe('issue 34 item 11b: the guardian age limit of the access log, over HTTP', () => {
  let limited: TestApp;
  let notYet: TestApp;
  beforeAll(async () => {
    [limited, notYet] = await Promise.all([
      startTestApp({ now: NOW, releasePolicy: { guardianAgeLimit: { operations: { getAccessLog: 9 } } } }),
      startTestApp({ now: NOW, releasePolicy: { guardianAgeLimit: { operations: { getAccessLog: 10 } } } }),
    ]);
    // Something to show: the guardian, the child and a kiosk read the child's record, in both apps.
    for (const t of [limited, notYet]) {
      for (const token of [await t.personToken(GUARDIAN), await t.clientToken()]) {
        expect((await t.call({ method: 'GET', url: '/patients/appointments/', token, patient: CHILD })).statusCode).toBe(200);
      }
      expect((await t.call({ method: 'GET', url: '/patients/appointments/', token: await t.personToken(CHILD) })).statusCode).toBe(200);
    }
  });
  afterAll(async () => {
    await Promise.all([limited.close(), notYet.close()]);
  });

  const lastOutcome = (t: TestApp): OutcomeRecord => t.audit.records.filter((r): r is OutcomeRecord => r.phase === undefined).at(-1) as OutcomeRecord;

  it('issue 34 item 11b: from the age it names, a guardian gets an empty log marked filtered, no next page, and the record counts the withheld entries', async () => {
    const res = await limited.call({ method: 'GET', url: `${LOG}?limit=2`, token: await limited.personToken(GUARDIAN), patient: CHILD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.headers[FILTERED]).toBe('true');
    expect(res.headers.link).toBeUndefined();
    expect(res.body).not.toContain(GUARDIAN);
    expect(lastOutcome(limited)).toMatchObject({ operation: 'getAccessLog', delegation: 'guardian', status: 200, withheld: 2 });
  });

  it('issue 34 item 11b: the FHIR form is an empty Bundle, marked filtered', async () => {
    const res = await limited.call({
      method: 'GET', url: LOG, token: await limited.personToken(GUARDIAN), patient: CHILD, headers: { accept: 'application/fhir+json' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers[FILTERED]).toBe('true');
    const bundle = res.json<{ resourceType: string; entry?: unknown[]; link?: Array<{ relation: string }> }>();
    expect(bundle.resourceType).toBe('Bundle');
    expect(bundle.entry ?? []).toEqual([]);
    expect((bundle.link ?? []).map((l) => l.relation)).not.toContain('next');
  });

  it('issue 34 item 11b: a client token is held to it for a minor; the child herself is not', async () => {
    const kiosk = await limited.call({ method: 'GET', url: LOG, token: await limited.clientToken(), patient: CHILD });
    expect([kiosk.statusCode, kiosk.headers[FILTERED], kiosk.json()]).toEqual([200, 'true', []]);
    const own = await limited.call({ method: 'GET', url: LOG, token: await limited.personToken(CHILD) });
    expect(own.statusCode).toBe(200);
    expect(own.headers[FILTERED]).toBeUndefined();
    expect(own.json<unknown[]>().length).toBeGreaterThan(3);
    expect(own.body).toContain(GUARDIAN);
  });

  it('issue 34 item 11b: before that age the guardian reads the log as before, with no header', async () => {
    const res = await notYet.call({ method: 'GET', url: LOG, token: await notYet.personToken(GUARDIAN), patient: CHILD });
    expect(res.statusCode).toBe(200);
    expect(res.headers[FILTERED]).toBeUndefined();
    expect(res.json<unknown[]>().length).toBeGreaterThan(2);
    expect(lastOutcome(notYet).withheld).toBeUndefined();
  });

  it('issue 34 item 11b: RELEASE_POLICY_FILE may name getAccessLog in guardianAgeLimit.operations', () => {
    const file = path.join(REPOSITORY_ROOT, 'examples', 'release-policy.json');
    expect(loadConfig({ RELEASE_POLICY_FILE: file }).releasePolicy?.guardianAgeLimit?.operations.getAccessLog).toBe(13);
  });
});

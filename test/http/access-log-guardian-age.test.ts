/**
 * Issue 34 item 11b: the guardian age limit covers the access log too (docs/contract.md#the-patients-access-log):
 * past the age the release policy names for `getAccessLog`, a guardian (and a client token, for a
 * minor) no longer sees which apps and people read the child's record. As for another read whose
 * whole answer the age limit takes: 200 with nothing in it (an empty page, an empty Bundle), no next
 * page, `Patient-Data-Filtered: true`, and the audit record saying something was withheld (1: the log is not read).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/start/config.js';
import type { OutcomeRecord } from '../../src/ports/audit-trail.port.js';
import { startTestApp, TEST_FHIR_IDS, type TestApp } from '../support/test-app.js';
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
      startTestApp({ now: NOW, releasePolicy: { guardianAgeLimit: { operations: { getAccessLog: 9, getJournalNotes: 9 } } } }),
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

  it('issue 34 item 11b: from the age it names, a guardian gets an empty log marked filtered, no next page, and the record says something was withheld', async () => {
    const res = await limited.call({ method: 'GET', url: `${LOG}?limit=2`, token: await limited.personToken(GUARDIAN), patient: CHILD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.headers[FILTERED]).toBe('true');
    expect(res.headers.link).toBeUndefined();
    expect(res.body).not.toContain(GUARDIAN);
    // One, not how many: the log is not read past the limit, so no count or time follows what it holds.
    expect(lastOutcome(limited)).toMatchObject({ operation: 'getAccessLog', delegation: 'guardian', status: 200, withheld: 1 });
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

  // Hostile review (helper-86, 1): the mark came only where the range held something, so a guardian
  // past the limit narrowing the range a second at a time learnt when the child's record was read (and,
  // for notes, when she was cared for). A read the limit takes whole is marked filtered in any range.
  it('from that age, an answer is marked filtered whether or not its range held anything: the same on both doors, for the log and for notes', async () => {
    const guardian = await limited.personToken(GUARDIAN);
    const smart = await limited.personToken(GUARDIAN, { client_id: 'guardian-app', scope: 'user/*.rs' });
    const childId = TEST_FHIR_IDS.patientId(CHILD);
    const tomorrow = '2026-11-22T00:00:00';
    const empty = '2000-01-01T00:00:00';
    const answers = async (from: string, to: string): Promise<string[]> => {
      const cos = await Promise.all([LOG, '/patients/journalnotes/'].map((url) =>
        limited.call({ method: 'GET', url: `${url}?fromDateTime=${from}&toDateTime=${to}`, token: guardian, patient: CHILD })));
      const fhir = await Promise.all(['AuditEvent', 'Composition'].map((type) =>
        limited.call({ method: 'GET', url: `/fhir/${type}?patient=${childId}&date=ge${from}&date=le${to}`, token: smart, key: null })));
      return [...cos, ...fhir].map((res) => {
        const body = res.json<{ meta?: { tag?: Array<{ code: string }> }; total?: number }>();
        return `${res.statusCode} ${res.headers[FILTERED]} ${Array.isArray(body) ? res.body : `${body.total} ${JSON.stringify(body.meta?.tag?.map((t) => t.code))}`}`;
      });
    };
    const held = await answers('2016-01-01T00:00:00', tomorrow);
    const none = await answers(empty, '2000-01-02T00:00:00');
    expect(held).toEqual(['200 true []', expect.stringMatching(/^200 true \[/), '200 true 0 ["SUBSETTED"]', '200 true 0 ["SUBSETTED"]']);
    expect(none).toEqual(held);
  });

  it('issue 34 item 11b: RELEASE_POLICY_FILE may name getAccessLog in guardianAgeLimit.operations', () => {
    const file = path.join(REPOSITORY_ROOT, 'examples', 'release-policy.json');
    expect(loadConfig({ RELEASE_POLICY_FILE: file }).releasePolicy?.guardianAgeLimit?.operations.getAccessLog).toBe(13);
  });
});

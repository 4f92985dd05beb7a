/**
 * Review of issue 56 item 4: a FHIR searchset written from kept entry bytes (searchset-bytes.ts) is
 * still audited before it is sent. With the audit store down or hanging, a search whose Bundle would
 * be the kept bytes (the same search asked before, every memo warm) is refused with 503 and carries
 * none of the patient's resources; once the store is back, the same search answers again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { bundleOf, get, matchesOf, NOW, pid, smartToken, TOLVAN } from '../http/fhir/fhir-calls.js';

const SEARCH = `/fhir/Composition?patient=${pid(TOLVAN)}&_count=50`;

describe('review: kept searchset bytes are audited before they are sent', () => {
  let t: TestApp;
  let token: string;
  let ids: string[];
  beforeAll(async () => {
    t = await startTestApp({ now: NOW });
    token = await smartToken(t, TOLVAN, 'launch/patient patient/*.rs');
    // Twice: the second answer is the kept bytes.
    await get(t, SEARCH, token);
    ids = matchesOf(bundleOf(await get(t, SEARCH, token))).map((r) => r.id);
    expect(ids.length).toBeGreaterThan(0);
  }, 60_000);
  afterAll(async () => t.close());

  it.each(['fail', 'hang'] as const)('audit store %s: 503, none of the resources', async (mode) => {
    t.audit.mode = mode;
    try {
      const refused = await get(t, SEARCH, token);
      expect(refused.statusCode).toBe(503);
      for (const id of ids) expect(refused.body).not.toContain(id);
    } finally {
      t.audit.mode = 'ok';
    }
    const again = await get(t, SEARCH, token);
    expect(matchesOf(bundleOf(again)).map((r) => r.id)).toEqual(ids);
    expect(t.audit.records.some((r) => r.requestId === again.headers['x-request-id'])).toBe(true);
  }, 30_000);
});

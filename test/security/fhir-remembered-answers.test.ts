/**
 * Review of issue 56 item 4's memos on the FHIR door (searchset-bytes.ts, remembered-matches.ts,
 * gathered-resources.ts, release/remembered-units.ts): what one caller is answered must never depend
 * on what others asked before. Each caller's searches are answered by an app that has served many
 * other callers first (the memos warm: a client token the release policy does not hold, the patient,
 * category-limited scopes, a LabResult-only proxy, a guardian), and by an app that has served nobody
 * (every memo cold). The two answers must be the same bytes, up to the request's own ids.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/start/config.js';
import type { ReleasePolicy } from '../../src/domain/release/release-policy.js';
import type { ProxyGrants } from '../../src/domain/proxies/proxy-grants.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';
import { ANTON, LILLA, MARTA, NOW, pid, SARA, smartToken, TOLVAN, get } from '../http/fhir/fhir-calls.js';

/** The example policy, every rule of it waived for client tokens: a client sees what a person may not. */
function clientExempt(): ReleasePolicy {
  const policy = loadConfig({ RELEASE_POLICY_FILE: path.join(REPOSITORY_ROOT, 'examples', 'release-policy.json') }).releasePolicy ?? {};
  const out: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(policy)) {
    out[name] = typeof rule === 'object' && rule !== null && !Array.isArray(rule) ? { ...rule, applyToClientTokens: false } : rule;
  }
  return out as ReleasePolicy;
}

const nothingToAudit = async (): Promise<void> => undefined;
const SEARCHES = (patient: string): string[] => [
  `/fhir/Composition?patient=${patient}&_count=50`,
  `/fhir/Composition?patient=${patient}&_count=2`,
  `/fhir/Observation?patient=${patient}&_count=500`,
  `/fhir/Observation?patient=${patient}&category=laboratory&_count=500`,
  `/fhir/DiagnosticReport?patient=${patient}&_include=DiagnosticReport:result&_count=500`,
  `/fhir/Condition?patient=${patient}&_count=500`,
  `/fhir/Encounter?patient=${patient}&_revinclude=Composition:encounter&_count=500`,
  `/fhir/Flag?patient=${patient}`,
  `/fhir/Patient?_id=${patient}`,
  `/fhir/Appointment?patient=${patient}&_count=500`,
];

/** A caller: who, with which scopes, asking about whom. */
interface Caller { name: string; token: (t: TestApp, times?: Record<string, number>) => Promise<string>; patient: string }

const tolvan = pid(TOLVAN);
const lilla = pid(LILLA);
const sara = pid(SARA);
const CALLERS: Caller[] = [
  // Protected identity: her own token sees her contact details, a client's has them masked.
  { name: 'Sara herself (protected identity)', token: (t, times = {}) => smartToken(t, SARA, 'launch/patient patient/*.rs', times), patient: sara },
  { name: 'client on Sara, masked', token: (t, times = {}) => t.clientToken({ scope: 'system/*.read', ...times }), patient: sara },
  { name: 'client, policy waived', token: (t, times = {}) => t.clientToken({ scope: 'system/*.read', ...times }), patient: tolvan },
  { name: 'client on Lilla, policy waived', token: (t, times = {}) => t.clientToken({ scope: 'system/*.read', ...times }), patient: lilla },
  { name: 'Tolvan, every scope', token: (t, times = {}) => smartToken(t, TOLVAN, 'launch/patient patient/*.rs', times), patient: tolvan },
  {
    name: 'Tolvan, vital signs only',
    token: (t, times = {}) => smartToken(t, TOLVAN, 'launch/patient patient/Observation.rs?category=http://terminology.hl7.org/CodeSystem/observation-category|vital-signs patient/Composition.rs patient/Encounter.rs', times),
    patient: tolvan,
  },
  { name: 'Anton, LabResult proxy of Tolvan', token: (t, times = {}) => smartToken(t, ANTON, 'user/*.rs', times), patient: tolvan },
  { name: 'Märta, guardian of Lilla', token: (t, times = {}) => smartToken(t, MARTA, 'user/*.rs', times), patient: lilla },
];

async function appWithGrant(): Promise<TestApp> {
  const t = await startTestApp({ now: NOW, proxies: { invitationDays: 7, maxGrants: 10, maxGrantsPerDay: 20, maxGrantsToOnePerDay: 3 }, releasePolicy: clientExempt() });
  const grants = t.proxyGrants as ProxyGrants;
  const given = await grants.give(TOLVAN, { grantee: ANTON, categories: ['LabResult'] }, nothingToAudit);
  await grants.accept(ANTON, given.id, nothingToAudit);
  return t;
}

/** An answer with what differs per request (its cursors) taken out. */
const comparable = (res: { statusCode: number; body: string; headers: Record<string, unknown> }): string =>
  `${res.statusCode} ${String(res.headers['patient-data-filtered'] ?? '')} ${res.body.replace(/_cursor=[^"&]+/g, '_cursor=…')}`;

describe('review: FHIR answers do not depend on who asked before (memos warm vs cold)', () => {
  let warm: TestApp;
  beforeAll(async () => {
    warm = await appWithGrant();
    // Every caller asks everything twice first: every memo holds their selections.
    for (let round = 0; round < 2; round++) {
      for (const caller of CALLERS) {
        const token = await caller.token(warm);
        for (const url of SEARCHES(caller.patient)) await get(warm, url, token);
      }
    }
  }, 120_000);
  afterAll(async () => warm.close());

  it('the callers are told different things of one record (else the comparison below could not fail)', async () => {
    const totals = async (caller: Caller, url: string): Promise<number | undefined> =>
      (JSON.parse((await get(warm, url, await caller.token(warm))).body) as { total?: number }).total;
    const [, , client, , patient, vitals, proxy] = CALLERS as [Caller, Caller, Caller, Caller, Caller, Caller, Caller];
    const notes = `/fhir/Composition?patient=${tolvan}&_count=50`;
    expect(await totals(client, notes)).toBeGreaterThan((await totals(patient, notes)) ?? 0);
    const observations = `/fhir/Observation?patient=${tolvan}&_count=500`;
    const all = (await totals(patient, observations)) ?? 0;
    // Tolvan's observations are all laboratory ones: a vital-signs scope reaches none of them.
    expect(all).toBeGreaterThan(0);
    expect(await totals(vitals, observations)).toBe(0);
    expect(await totals(proxy, `/fhir/Condition?patient=${tolvan}`)).toBeUndefined();
    const [saraHerself, clientOnSara] = CALLERS as [Caller, Caller];
    const saraPatient = `/fhir/Patient?_id=${sara}`;
    const own = (await get(warm, saraPatient, await saraHerself.token(warm))).body;
    const masked = (await get(warm, saraPatient, await clientOnSara.token(warm))).body;
    expect(own).toContain('"address"');
    expect(masked).not.toContain('"address"');
  });

  it.each(CALLERS.map((c) => [c.name, c] as const))('%s: the same answers from a warm app as from a cold one', async (_name, caller) => {
    const cold = await appWithGrant();
    try {
      const coldToken = await caller.token(cold);
      const warmToken = await caller.token(warm);
      for (const url of SEARCHES(caller.patient)) {
        const fromCold = comparable(await get(cold, url, coldToken));
        const fromWarm = comparable(await get(warm, url, warmToken));
        expect(fromWarm, url).toBe(fromCold);
      }
    } finally {
      await cold.close();
    }
  }, 60_000);
});

describe('review: the demo clock moving past the signing delay, memos warm vs cold', () => {
  const LATER = NOW + 30 * 24 * 3600_000;
  /** Tokens issued at the later moment (the test issuer signs by the wall clock, the service checks by its own). */
  const later = { iat: LATER / 1000, exp: LATER / 1000 + 600 };
  let warm: TestApp;
  let cold: TestApp;
  beforeAll(async () => {
    [warm, cold] = await Promise.all([appWithGrant(), appWithGrant()]);
    for (const caller of CALLERS) {
      const token = await caller.token(warm);
      for (const url of SEARCHES(caller.patient)) await get(warm, url, token);
    }
    warm.clock.set(LATER);
    cold.clock.set(LATER);
  }, 120_000);
  afterAll(async () => Promise.all([warm.close(), cold.close()]));

  it('the clock moves what is released: Tolvan is told more of his notes later (else the comparison below could not fail)', async () => {
    const notes = `/fhir/Composition?patient=${tolvan}&_count=50`;
    const fresh = await startTestApp({ now: NOW, releasePolicy: clientExempt() });
    try {
      const before = (JSON.parse((await get(fresh, notes, await smartToken(fresh, TOLVAN, 'launch/patient patient/*.rs'))).body) as { total: number }).total;
      const after = (JSON.parse((await get(cold, notes, await smartToken(cold, TOLVAN, 'launch/patient patient/*.rs', later))).body) as { total: number }).total;
      expect(after).toBeGreaterThan(before);
    } finally {
      await fresh.close();
    }
  });

  it('the tokens hold at the later moment', async () => {
    expect((await get(warm, `/fhir/Composition?patient=${tolvan}`, await smartToken(warm, TOLVAN, 'launch/patient patient/*.rs', later))).statusCode).toBe(200);
  });

  it.each(CALLERS.map((c) => [c.name, c] as const))('%s: the same answers after the move from a warm app as from a cold one', async (_name, caller) => {
    const coldToken = await caller.token(cold, later);
    const warmToken = await caller.token(warm, later);
    for (const url of SEARCHES(caller.patient)) {
      expect(comparable(await get(warm, url, warmToken)), url).toBe(comparable(await get(cold, url, coldToken)));
    }
  }, 60_000);
});

describe('review: a page cursor and an include after the grant is revoked, memos warm', () => {
  it('the next page and the same search are refused, and tell nothing of the grantor', async () => {
    const t = await startTestApp({ now: NOW, proxies: { invitationDays: 7, maxGrants: 10, maxGrantsPerDay: 20, maxGrantsToOnePerDay: 3 } });
    try {
      const grants = t.proxyGrants as ProxyGrants;
      const given = await grants.give(TOLVAN, { grantee: ANTON, categories: ['LabResult'] }, nothingToAudit);
      await grants.accept(ANTON, given.id, nothingToAudit);
      const token = await smartToken(t, ANTON, 'user/*.rs');
      const url = `/fhir/DiagnosticReport?patient=${tolvan}&_count=1&_include=DiagnosticReport:result`;
      // Twice, so the second is the kept bytes and remembered selection.
      await get(t, url, token);
      const first = await get(t, url, token);
      expect(first.statusCode).toBe(200);
      const next = (JSON.parse(first.body) as { link: { relation: string; url: string }[] }).link.find((l) => l.relation === 'next');
      expect(next).toBeDefined();
      const nextPath = new URL((next as { url: string }).url).pathname.replace(/^.*\/fhir/, '/fhir') + new URL((next as { url: string }).url).search;
      expect((await get(t, nextPath, token)).statusCode).toBe(200);
      await grants.revoke(TOLVAN, given.id, nothingToAudit);
      for (const path of [nextPath, url]) {
        const after = await get(t, path, token);
        expect(after.statusCode, path).toBe(403);
        expect(after.body).not.toMatch(/DiagnosticReport\/|Observation\/|Tolvansson/);
      }
    } finally {
      await t.close();
    }
  }, 60_000);
});

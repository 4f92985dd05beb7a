/**
 * docs/fhir-api.md#the-same-rules-as-the-cos-api (docs/threat-model.md row 54): the FHIR door keeps
 * every rule of the COS door. The release policy withholds the same records through both (absent
 * from matches, includes and `total`, a read by id 404, the answer marked); delegation is decided
 * on every request; a protected person is nobody's to act for and a client token sees no contact
 * details of one; every interaction is audited before the answer, and named in the patient's
 * access log by the data it read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/start/config.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { ANTON, bundleOf, get, LILLA, MARTA, matchesOf, NOW, outcomeOf, pid, SARA, smartToken, TOLVAN, type Resource } from './fhir-calls.js';

const policy = loadConfig({ RELEASE_POLICY_FILE: 'examples/release-policy.json', DATA_DIR: '/tmp/pdas-release' }).releasePolicy;
const FILTERED = 'patient-data-filtered';
/** Märta's partner (an open-ended partner row, a coordination number). */
const PARTNER = '194608632396';
const SUBSETTED = { system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationValue', code: 'SUBSETTED' };

/** The COS read and the FHIR type of its records, compared through both doors. */
const PAIRS = [
  { cos: '/patients/labresults/', extracts: 'chemistryReportEHRExtract', fhir: 'DiagnosticReport' },
  { cos: '/patients/journalnotes/', extracts: 'JournalNoteEHRExtract', fhir: 'Composition' },
  { cos: '/patients/diagnoses/', extracts: 'diagnosisEHRExtract', fhir: 'Condition' },
] as const;

describe('the FHIR API under the release policy', () => {
  let open: TestApp;
  let governed: TestApp;
  beforeAll(async () => {
    open = await startTestApp({ now: NOW });
    governed = await startTestApp({ now: NOW, ...(policy ? { releasePolicy: policy } : {}) });
  }, 60_000);
  afterAll(async () => {
    await open.close();
    await governed.close();
  });

  it('withholds what the COS API withholds, from matches and total, marks the answer, and reads a withheld one by id as 404', async () => {
    let withheldSeen = 0;
    for (const person of [TOLVAN, MARTA, LILLA]) {
      for (const pair of PAIRS) {
        const cosToken = await governed.personToken(person);
        const cos = await governed.call({ method: 'GET', url: pair.cos, token: cosToken });
        const cosCount = (cos.json() as Record<string, unknown[]>[]).reduce((n, item) => n + (item[pair.extracts]?.length ?? 0), 0);
        const before = bundleOf(await get(open, `/fhir/${pair.fhir}?_count=500`, await smartToken(open, person, 'patient/*.read')));
        const token = await smartToken(governed, person, 'patient/*.read');
        const answer = await get(governed, `/fhir/${pair.fhir}?_count=500`, token);
        const after = bundleOf(answer);
        // The COS read's extracts are the FHIR matches one for one here (one Condition per extract's first diagnosis and more).
        const filtered = cos.headers[FILTERED] === 'true';
        expect([person, pair.fhir, answer.headers[FILTERED] === 'true'], 'marked as the COS answer is').toEqual([person, pair.fhir, filtered]);
        const tags = (after as unknown as { meta?: { tag: unknown[] } }).meta?.tag ?? [];
        expect(tags.length > 0, `${person} ${pair.fhir}: SUBSETTED`).toBe(filtered);
        if (filtered) expect(tags).toEqual([SUBSETTED]);
        expect(after.total).toBe(matchesOf(after).length);
        const kept = new Set(matchesOf(after).map((r) => r.id));
        const gone = matchesOf(before).filter((r) => !kept.has(r.id));
        if (pair.fhir !== 'Condition') expect(after.total, `${person} ${pair.fhir} against COS`).toBe(cosCount);
        for (const r of gone.slice(0, 2)) outcomeOf(await get(governed, `/fhir/${pair.fhir}/${r.id}`, token), 404);
        withheldSeen += gone.length;
      }
    }
    expect(withheldSeen, 'the policy withholds something from the demo people').toBeGreaterThan(0);
  });

  it('leaves withheld results out of includes too', async () => {
    const token = await smartToken(governed, TOLVAN, 'patient/*.read');
    const reports = bundleOf(await get(governed, '/fhir/DiagnosticReport?_include=DiagnosticReport:result', token));
    const observations = new Set(matchesOf(bundleOf(await get(governed, '/fhir/Observation?_count=500', token))).map((o) => `Observation/${o.id}`));
    const included = (reports.entry ?? []).filter((e) => e.search.mode === 'include').map((e) => `${e.resource.resourceType}/${e.resource.id}`);
    expect(included.filter((k) => k.startsWith('Observation/') && !observations.has(k))).toEqual([]);
  });
});

describe('the FHIR API: delegation, protected identity, audit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW });
  }, 60_000);
  afterAll(async () => t.close());

  it('a guardian reads her child with user/ scopes, never the grown-up child whose guardianship ended, nor a protected person', async () => {
    const token = await smartToken(t, MARTA, 'user/*.read');
    expect(bundleOf(await get(t, `/fhir/Condition?patient=${pid(LILLA)}`, token)).total).toBeGreaterThanOrEqual(0);
    outcomeOf(await get(t, `/fhir/Condition?patient=${pid(ANTON)}`, token), 403);
    outcomeOf(await get(t, `/fhir/Patient/${pid(SARA)}`, token), 404);
    outcomeOf(await get(t, `/fhir/Condition?patient=${pid(SARA)}`, token), 403);
    // Everyone she may act for today: herself, her child, Tolvan (power of attorney) and her partner;
    // not Anton (grown up) nor Sara (protected, though the registry lists her).
    const people = matchesOf(bundleOf(await get(t, '/fhir/Patient', token))).map((p) => p.id).sort();
    expect(people).toEqual([pid(MARTA), pid(LILLA), pid(TOLVAN), pid(PARTNER)].sort());
  });

  it('a client token reads a protected person\'s Patient without address, phone or e-mail', async () => {
    const client = await t.clientToken({ scope: 'system/*.read' });
    const sara = matchesOf(bundleOf(await get(t, `/fhir/Patient?_id=${pid(SARA)}`, client)))[0] as Resource;
    expect(sara.id).toBe(pid(SARA));
    expect([sara.address, sara.telecom]).toEqual([undefined, undefined]);
    const tolvan = matchesOf(bundleOf(await get(t, `/fhir/Patient?_id=${pid(TOLVAN)}`, client)))[0] as Resource;
    expect(tolvan.address).toBeDefined();
  });

  it('audits each interaction before the answer, under the operation of the data read; the access log names it so', async () => {
    const token = await smartToken(t, TOLVAN, 'patient/*.read user/AccessLog-read');
    const before = t.audit.records.length;
    expect((await get(t, '/fhir/Observation?_count=1', token)).statusCode).toBe(200);
    const record = t.audit.records.at(-1);
    expect(t.audit.records.length).toBe(before + 1);
    expect([record?.operation, record?.patientId, record?.outcome]).toEqual(['getLabResults', TOLVAN, 'allowed']);
    const log = await t.call({ method: 'GET', url: '/patients/accesslog/?limit=100', token: await t.personToken(TOLVAN) });
    const entry = (log.json() as { operation: string; operationDisplayName: { sv: string; en: string }; requestId: string }[])
      .find((e) => e.requestId === record?.requestId);
    expect(entry?.operationDisplayName).toEqual({ sv: 'Provsvar', en: 'Lab results' });
    // The same log as FHIR AuditEvents, each naming its request's id.
    const events = matchesOf(bundleOf(await get(t, '/fhir/AuditEvent?_count=500', token)));
    const requestIds = events.flatMap((e) => (e.entity as { what: { identifier: { value: string } } }[]).map((x) => x.what.identifier.value));
    expect(requestIds).toContain(record?.requestId);
    t.audit.mode = 'fail';
    try {
      const refused = await get(t, '/fhir/Observation?_count=1', token);
      expect(outcomeOf(refused, 503).code).toBe('transient');
      expect(refused.body).not.toContain('Observation/');
    } finally {
      t.audit.mode = 'ok';
    }
  });
});

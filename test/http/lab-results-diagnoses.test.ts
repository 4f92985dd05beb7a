/**
 * Issue 23, through the app over the embedded EHR's demo data: lab results and diagnoses at the
 * spec paths and the vendor's, the vendor's names of the time bounds on its lab path (both forms of
 * one bound refused), delegation and a refused stranger in error shape 2, the release policy with a
 * fixed clock, and the access log naming both reads. Scopes and their spellings, BOLA, methods and
 * fuzzing cover both from the operation table (test/http/operation-table.test.ts, test/security).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnoses, LabResult } from '../../src/domain/records/index.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const TOLVAN = '191212121212';
const MARTA = '198112189876';
const LILLA = '201701012393';
const ANTON = '200404122384';
const NOW = Date.UTC(2026, 10, 23, 9, 0);

const reportIds = (body: LabResult[]): string[] => body.flatMap((r) => r.chemistryReportEHRExtract.map((e) => e.report?.reportId ?? ''));
const times = (body: Array<{ [k: string]: Array<{ timeCreated?: { value?: string } }> }>, key: string): string[] =>
  body.flatMap((r) => (r[key] ?? []).map((e) => e.timeCreated?.value ?? ''));

describe('issue 23: lab results and diagnoses through the app', () => {
  let t: TestApp;
  let tolvan: string;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW });
    tolvan = await t.personToken(TOLVAN);
  });
  afterAll(() => t.close());

  it('answers both reads at the spec path and the vendor alias alike, sorted on timeCreated', async () => {
    for (const [spec, vendor, key] of [
      ['/patients/labresults/', '/api/open/chemistrylabreports/', 'chemistryReportEHRExtract'],
      ['/patients/diagnoses', '/api/open/diagnosis', 'diagnosisEHRExtract'],
    ] as const) {
      const a = await t.call({ method: 'GET', url: spec, token: tolvan });
      const b = await t.call({ method: 'GET', url: vendor, token: tolvan });
      expect([spec, a.statusCode, b.statusCode]).toEqual([spec, 200, 200]);
      expect(b.body).toBe(a.body);
      const created = times(a.json(), key);
      expect(created.length).toBeGreaterThan(2);
      expect(created.map((c) => c)).toEqual([...created].sort());
    }
  });

  it('takes the vendor\'s startActionDateTime/endActionDateTime on its lab path, refuses one bound in both forms, and the vendor\'s names on the spec path', async () => {
    const all: LabResult[] = (await t.call({ method: 'GET', url: '/patients/labresults/', token: tolvan })).json();
    const allCreated = times(all as never, 'chemistryReportEHRExtract');
    const cut = allCreated[1] ?? '';
    const local = `${cut.slice(0, 4)}-${cut.slice(4, 6)}-${cut.slice(6, 8)}T${cut.slice(8, 10)}:${cut.slice(10, 12)}:${cut.slice(12, 14)}`;
    const spec = await t.call({ method: 'GET', url: `/patients/labresults/?fromDateTime=${local}`, token: tolvan });
    const vendor = await t.call({ method: 'GET', url: `/api/open/chemistrylabreports/?startActionDateTime=${local}`, token: tolvan });
    expect([spec.statusCode, vendor.statusCode]).toEqual([200, 200]);
    expect(reportIds(vendor.json())).toEqual(reportIds(spec.json()));
    expect(reportIds(vendor.json())).toHaveLength(allCreated.length - 1);
    const upTo = await t.call({ method: 'GET', url: `/api/open/chemistrylabreports/?endActionDateTime=${local}`, token: tolvan });
    expect(reportIds(upTo.json())).toHaveLength(2);

    const both = await t.call({ method: 'GET', url: `/api/open/chemistrylabreports/?startActionDateTime=${local}&fromDateTime=${local}`, token: tolvan });
    expect(both.statusCode).toBe(400);
    expect(both.json()).toMatchObject({ status: 400, path: '/api/open/chemistrylabreports/', error: expect.stringMatching(/startActionDateTime and fromDateTime/) });
    const onSpecPath = await t.call({ method: 'GET', url: `/patients/labresults/?startActionDateTime=${local}`, token: tolvan });
    expect(onSpecPath.statusCode).toBe(400);
    expect(onSpecPath.json()).toHaveProperty('error');
  });

  it('lets a guardian read the child\'s lab results and diagnoses, and refuses an expired guardian in shape 2', async () => {
    const marta = await t.personToken(MARTA);
    const child = await t.call({ method: 'GET', url: '/patients/labresults/', token: marta, patient: LILLA });
    expect(child.statusCode).toBe(200);
    expect((child.json() as LabResult[])[0]?.chemistryReportEHRExtract[0]?.patient?.patientID?.extension).toBe(LILLA);
    const refused = await t.call({ method: 'GET', url: '/patients/diagnoses/', token: marta, patient: ANTON });
    expect(refused.statusCode).toBe(403);
    expect(Object.keys(refused.json()).sort()).toEqual(['error', 'path', 'status', 'timestamp']);
  });

  it('names both reads in the access log, in Swedish and English', async () => {
    const log = (await t.call({ method: 'GET', url: '/patients/accesslog/?limit=500', token: tolvan })).json() as Array<{ operation: string; operationDisplayName: unknown }>;
    expect(log.find((e) => e.operation === 'getLabResults')?.operationDisplayName).toEqual({ sv: 'Provsvar', en: 'Lab results' });
    expect(log.find((e) => e.operation === 'getDiagnoses')?.operationDisplayName).toEqual({ sv: 'Diagnoser', en: 'Diagnoses' });
  });
});

describe('issue 23: the example release policy over the demo data', () => {
  let t: TestApp;
  afterAll(() => t.close());

  it('withholds Tolvan\'s secret and preliminary reports and his secret and unsigned diagnoses, and Lilla\'s Barnahus diagnosis from her guardian', async () => {
    const { loadConfig } = await import('../../src/start/config.js');
    const policy = loadConfig({ RELEASE_POLICY_FILE: 'examples/release-policy.json', DATA_DIR: '/tmp/pdas-release' }).releasePolicy;
    t = await startTestApp({ now: NOW, ...(policy ? { releasePolicy: policy } : {}) });
    const tolvan = await t.personToken(TOLVAN);
    const labs = await t.call({ method: 'GET', url: '/patients/labresults/', token: tolvan });
    expect(labs.headers['patient-data-filtered']).toBe('true');
    const statuses = (labs.json() as LabResult[]).flatMap((r) => r.chemistryReportEHRExtract.map((e) => e.report?.secrecyClassification));
    expect(statuses.every((s) => s !== 'Sekretess')).toBe(true);
    const tests = (labs.json() as LabResult[]).flatMap((r) => r.chemistryReportEHRExtract.flatMap((e) => e.report?.testResult ?? []));
    expect(tests.every((r) => r.attestDateTime !== undefined)).toBe(true);

    const dx = (await t.call({ method: 'GET', url: '/patients/diagnoses/', token: tolvan })).json() as Diagnoses[];
    const codes = dx.flatMap((r) => r.diagnosisEHRExtract.flatMap((e) => e.diagnoses?.diagnosis.map((d) => d.diagnosisCode) ?? []));
    expect(codes).toContain('J45.9');
    expect(codes).not.toContain('F32.1');
    expect(codes).not.toContain('N39.0');

    const guardian = (await t.call({ method: 'GET', url: '/patients/diagnoses/', token: await t.personToken(MARTA), patient: LILLA })).json() as Diagnoses[];
    const lillaCodes = guardian.flatMap((r) => r.diagnosisEHRExtract.flatMap((e) => e.diagnoses?.diagnosis.map((d) => d.diagnosisCode) ?? []));
    expect(lillaCodes).toEqual(['D50.9']);
  });
});

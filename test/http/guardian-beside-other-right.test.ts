/**
 * Hostile review helper-103, F1: a guardian whose registry also lists another right for the same child
 * (a power of attorney, listed first) read the child's notes and access log past the guardian age limit,
 * on both doors, and was recorded as the power of attorney: the first row decided. A guardian's right
 * decides where it holds, whatever the rows' order (src/domain/access/patient-access.ts basisNow).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutcomeRecord } from '../../src/ports/audit-trail.port.js';
import { startTestApp, TEST_FHIR_IDS, type TestApp } from '../support/test-app.js';

const GUARDIAN = '198112189876';
/** Lilla, born 1 January 2017: 9 years old on NOW, past the limit of 9 below. */
const CHILD = '201701012393';
const NOW = Date.UTC(2026, 10, 21, 8, 0);
const FILTERED = 'patient-data-filtered';

/** A power of attorney for the child, listed before the guardianship in the guardian's registry file. */
async function powerOfAttorneyFirst(dir: string): Promise<void> {
  const file = path.join(dir, 'relationships', `${GUARDIAN}.xml`);
  const xml = await readFile(file, 'utf8');
  const guardianRow = `<Relationship patient="${CHILD}" type="guardian"`;
  if (!xml.includes(guardianRow)) throw new Error('no guardianship of the child to put a row before');
  await writeFile(file, xml.replace(guardianRow, `<Relationship patient="${CHILD}" type="power-of-attorney" validFrom="20260101" validTo="20301231"/>\n  ${guardianRow}`));
}

describe('a guardian with another right to the same child is held to the guardian age limit (helper-103, F1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW, editEhr: powerOfAttorneyFirst, releasePolicy: { guardianAgeLimit: { operations: { getAccessLog: 9, getJournalNotes: 9 } } } });
  }, 60_000);
  afterAll(async () => t.close());

  const lastOutcome = (): OutcomeRecord => t.audit.records.filter((r): r is OutcomeRecord => r.phase === undefined).at(-1) as OutcomeRecord;

  it('gets none of the notes or the log on the COS door, recorded as the guardian', async () => {
    const token = await t.personToken(GUARDIAN);
    for (const url of ['/patients/journalnotes/', '/patients/accesslog/']) {
      const res = await t.call({ method: 'GET', url, token, patient: CHILD });
      expect([url, res.statusCode, res.headers[FILTERED]]).toEqual([url, 200, 'true']);
      expect(res.body).not.toContain('JournalNoteEHRExtract":[{');
      expect(lastOutcome()).toMatchObject({ delegation: 'guardian', status: 200 });
      expect(lastOutcome().withheld).toBeGreaterThan(0);
    }
    expect((await t.call({ method: 'GET', url: '/patients/accesslog/', token, patient: CHILD })).json()).toEqual([]);
  });

  it('gets none of them on the FHIR door either', async () => {
    const smart = await t.personToken(GUARDIAN, { client_id: 'guardian-app', scope: 'user/*.rs' });
    for (const type of ['Composition', 'AuditEvent']) {
      const res = await t.call({ method: 'GET', url: `/fhir/${type}?patient=${TEST_FHIR_IDS.patientId(CHILD)}`, token: smart, key: null });
      expect([type, res.statusCode, res.headers[FILTERED], res.json<{ total?: number }>().total]).toEqual([type, 200, 'true', 0]);
      expect(lastOutcome()).toMatchObject({ delegation: 'guardian' });
    }
  });
});

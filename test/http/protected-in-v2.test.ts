/**
 * Protected identity as either patient document marks it (docs/contract.md#token-kinds). Hostile review
 * helper-184, F1: the access decision read the patient document (v1) alone, so a person only the EHR's v2
 * mirror marked protected was read by her delegates on every read but the v2 one, written for, and a kiosk
 * was shown her address in the bookings read. Failed before: 200 on every read below but the v2 patient read.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';

const TOLVAN = '191212121212';
/** Märta holds a power of attorney for Tolvan in the demo registry. */
const MARTA = '198112189876';

/** Tolvan marked protected in his v2 mirror only: his patient document (v1) still says he is not. */
async function protectedInV2Only(ehrDir: string): Promise<void> {
  const file = path.join(ehrDir, 'patients', TOLVAN, 'patient-v2.xml');
  const text = await readFile(file, 'utf8');
  const marked = text.replaceAll('<patientProtectedId>false</patientProtectedId>', '<patientProtectedId>true</patientProtectedId>');
  expect(marked).not.toBe(text);
  await writeFile(file, marked);
  expect(await readFile(path.join(ehrDir, 'patients', TOLVAN, 'patient.xml'), 'utf8')).toContain('<PatientProtectedId>false</PatientProtectedId>');
}

describe('a protected identity marked in the v2 patient document alone', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ editEhr: protectedInV2Only });
  });
  afterAll(() => t.close());

  it('is refused to a delegate on every read and write, as one marked in the patient document is', async () => {
    const token = await t.personToken(MARTA);
    for (const url of ['/patients/journalnotes/', '/patients/appointments/', '/patients/patient/', '/patients/patient/?api-version=v2', '/patients/accesslog/']) {
      const res = await t.call({ method: 'GET', url, token, patient: TOLVAN });
      expect([url, res.statusCode]).toEqual([url, 403]);
    }
    const arrival = await t.call({ method: 'PUT', url: '/patients/appointments/?id=00261201301', token, patient: TOLVAN, payload: { status: 'arrived' } });
    expect(arrival.statusCode).toBe(403);
  });

  it('is read by the patient, whole; a client token gets no address, phone or e-mail from the bookings or either patient read', async () => {
    const own = await t.call({ method: 'GET', url: '/patients/appointments/', token: await t.personToken(TOLVAN) });
    expect(own.statusCode).toBe(200);
    expect(own.body).toContain('Tolvansgatan');
    const kiosk = await t.clientToken();
    for (const url of ['/patients/appointments/', '/patients/patient/', '/patients/patient/?api-version=v2']) {
      const res = await t.call({ method: 'GET', url, token: kiosk, patient: TOLVAN });
      expect([url, res.statusCode, /Tolvansgatan|0701740605|@example\.se/.test(res.body)]).toEqual([url, 200, false]);
    }
  });
});

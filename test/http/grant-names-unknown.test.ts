/**
 * A grant's kept name of a person the EHR no longer knows (docs/proxies.md#the-grant-object). Re-review helper-191, F1:
 * once the grantee's patient document was gone from the EHR, the service took them as not protected and went on
 * showing the name kept when they accepted, in the grant, `/fhir/Consent` and the access log, though the EHR could
 * not say whether they were protected now (their v2 mirror marked them). Failed before: "Anton Ström" in all three.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';

const TOLVAN = '191212121212';
const ANTON = '200404122384';

/** A test app whose EHR the test may edit, and Tolvan's grant to Anton, accepted: its app, EHR folder and grant id. */
async function acceptedGrant(): Promise<{ t: TestApp; ehrDir: string; grantId: string }> {
  let ehrDir = '';
  const t = await startTestApp({
    proxies: { invitationDays: 7, maxGrants: 10, maxGrantsPerDay: 10, maxGrantsToOnePerDay: 3 },
    editEhr: async (dir) => { ehrDir = dir; },
  });
  const given = await t.call({ method: 'POST', url: '/patients/proxies/', token: await t.personToken(TOLVAN), payload: { grantee: ANTON, categories: ['Appointment'] } });
  const grantId = (JSON.parse(given.body) as { id: string }).id;
  expect((await t.call({ method: 'POST', url: `/patients/proxies/${grantId}/accept`, token: await t.personToken(ANTON) })).statusCode).toBe(200);
  return { t, ehrDir, grantId };
}

describe('a grant to a person the EHR no longer knows', () => {
  let t: TestApp;
  let ehrDir = '';
  let grantId = '';
  beforeAll(async () => {
    ({ t, ehrDir, grantId } = await acceptedGrant());
  });
  afterAll(() => t.close());

  const named = async (): Promise<boolean[]> => {
    const token = await t.personToken(TOLVAN);
    const grants = await t.call({ method: 'GET', url: '/patients/proxies/', token });
    const consents = await t.call({ method: 'GET', url: '/fhir/Consent', token });
    expect([grants.statusCode, consents.statusCode]).toEqual([200, 200]);
    const parties = await t.proxyGrants?.partiesOf(grantId);
    return [grants.body.includes('Anton'), consents.body.includes('Anton'), parties?.granteeName !== undefined];
  };

  it('names them while the EHR knows them, and by number alone once it does not', async () => {
    expect(await named()).toEqual([true, true, true]);
    const patientDir = path.join(ehrDir, 'patients', ANTON);
    const v2 = path.join(patientDir, 'patient-v2.xml');
    const text = await readFile(v2, 'utf8');
    await writeFile(v2, text.replaceAll('<patientProtectedId>false</patientProtectedId>', '<patientProtectedId>true</patientProtectedId>'));
    await rm(path.join(patientDir, 'patient.xml'));
    expect(await named()).toEqual([false, false, false]);
    // Not for the mark alone: a person the EHR cannot name now is not named from what was kept.
    await writeFile(v2, text);
    expect(await named()).toEqual([false, false, false]);
  });
});

// Re-review helper-195, F1: dd23e20a showed a renamed person's new name to the other side, even after the grant was
// revoked: a person renamed to get away from the grantor had the new name shown to the grantor in the grant, /fhir/Consent
// and the access log. A rename is now shown by number alone: neither the kept name nor the new one.
describe('a grant to a person the EHR has renamed since', () => {
  let t: TestApp;
  let ehrDir = '';
  let grantId = '';
  beforeAll(async () => {
    ({ t, ehrDir, grantId } = await acceptedGrant());
    expect((await t.call({ method: 'DELETE', url: `/patients/proxies/${grantId}`, token: await t.personToken(ANTON) })).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it('names them by neither name once renamed, the grant ended or not', async () => {
    const token = await t.personToken(TOLVAN);
    const shown = async (): Promise<string> => [
      (await t.call({ method: 'GET', url: '/patients/proxies/', token })).body, (await t.call({ method: 'GET', url: '/fhir/Consent', token })).body,
      JSON.stringify(await t.proxyGrants?.partiesOf(grantId)),
    ].join('\n');
    expect(await shown()).toContain('Anton');
    for (const file of ['patient.xml', 'patient-v2.xml']) {
      const at = path.join(ehrDir, 'patients', ANTON, file);
      const text = await readFile(at, 'utf8');
      const renamed = text.replaceAll('Anton', 'Hemligt');
      expect(renamed).not.toBe(text);
      await writeFile(at, renamed);
    }
    const after = await shown();
    expect([after.includes('Anton'), after.includes('Hemligt')]).toEqual([false, false]);
  });
});

/**
 * Issue 34 item 2: the release policy over a FHIR EHR (docs/release-policy.md#a-fhir-ehr). The demo
 * people's secret note, lab report and diagnosis reach the FHIR server labelled `R`; the XML EHR's
 * example policy names `Sekretess` and so withholds none of them (loadConfig refuses it with fhir-r4:
 * test/config/release-policy-settings.test.ts), while examples/release-policy-fhir.json withholds all three.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/start/config.js';
import type { ReleasePolicy } from '../../src/domain/release/release-policy.js';
import { startTestAppOn, type AnyTestApp } from '../support/test-app.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';

const TOLVAN = '191212121212';
const MARTA = '198112189876';
const LILLA = '201701012393';
const NOW = Date.UTC(2026, 10, 21, 8, 0);
const FILTERED = 'patient-data-filtered';
const FHIR = { EHR_ADAPTER: 'fhir-r4', EHR_BASE_URL: 'http://127.0.0.1:8091/fhir', FHIR_ID_ROOT: '1.2.752.99999.1.1' };
const policyOf = (file: string, env: Record<string, string> = {}): ReleasePolicy =>
  loadConfig({ ...env, RELEASE_POLICY_FILE: path.join(REPOSITORY_ROOT, 'examples', file) }).releasePolicy ?? {};

/** What only the secret records hold: the note's text, the S-Litium report, the depression diagnosis. */
const SECRETS = [
  ['/patients/journalnotes/', 'Uppgiften lämnas inte ut'],
  ['/patients/labresults/', 'S-Litium'],
  ['/patients/diagnoses', 'F32.1'],
] as const;

describe('issue 34 item 2: the release policy over the fhir-r4 EHR', () => {
  let plain: AnyTestApp;
  let cambioCodes: AnyTestApp;
  let fhirCodes: AnyTestApp;
  beforeAll(async () => {
    [plain, cambioCodes, fhirCodes] = await Promise.all([
      startTestAppOn('fhir-r4', { now: NOW }),
      startTestAppOn('fhir-r4', { now: NOW, releasePolicy: policyOf('release-policy.json') }),
      startTestAppOn('fhir-r4', { now: NOW, releasePolicy: policyOf('release-policy-fhir.json', FHIR) }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([plain.close(), cambioCodes.close(), fhirCodes.close()]);
  });

  it('issue 34 item 2: a policy in the XML EHR\'s levels withholds none of the records FHIR labels R (why fhir-r4 refuses it at start)', async () => {
    const token = await cambioCodes.personToken(TOLVAN);
    for (const [url, secret] of SECRETS) {
      const res = await cambioCodes.call({ method: 'GET', url, token });
      expect([url, res.statusCode, res.body.includes(secret)]).toEqual([url, 200, true]);
    }
  });

  it('issue 34 item 2: examples/release-policy-fhir.json withholds the secret note, lab report and diagnosis, marked filtered', async () => {
    const token = await fhirCodes.personToken(TOLVAN);
    for (const [url, secret] of SECRETS) {
      const res = await fhirCodes.call({ method: 'GET', url, token });
      expect([url, res.statusCode, res.headers[FILTERED], res.body.includes(secret)]).toEqual([url, 200, 'true', false]);
    }
  });

  it('issue 34 item 2: its care-unit and keyword rules match the FHIR EHR\'s HSA ids and section titles (Lilla\'s Barnahus note and contact)', async () => {
    const guardian = (app: AnyTestApp, url: string) => app.personToken(MARTA).then((token) => app.call({ method: 'GET', url, token, patient: LILLA }));
    for (const url of ['/patients/journalnotes/', '/patients/contacts/']) {
      const before = await guardian(plain, url);
      const after = await guardian(fhirCodes, url);
      expect([url, before.statusCode, after.statusCode, after.headers[FILTERED]]).toEqual([url, 200, 200, 'true']);
      expect(before.body).toMatch(/SE2321000016-BH01/);
      expect(after.body).not.toMatch(/Barnahus|Orosanmälan|SE2321000016-BH01/);
    }
  });
});

/**
 * The service as `npm start` composes it (src/start/config.ts, src/start/container.ts) with `EHR_ADAPTER=fhir-r4`
 * in front of the development FHIR server, and with the delegation registry read from FHIR beside
 * the embedded EHR (DELEGATION_REGISTRY=fhir-r4): the adapter a setting names is the one that answers.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/start/config.js';
import { compose, type Runtime } from '../../../src/start/container.js';
import type { FhirSim } from '../../../src/dev/fhir-sim/fhir-sim.js';
import { createLogger } from '../../../src/http/logging.js';
import { clientOf } from '../../support/app-wiring.js';
import { KEY } from '../../support/test-app.js';
import { TestIssuer } from '../../support/test-issuer.js';
import { TOLVAN } from './support/demo-bundle.js';
import { startDemoSim } from './support/demo-sim.js';
import { CHAIN_KEY_ENV } from '../../support/chain-key.js';

const TOLVE = '201212121212';
/** In the embedded demo data, Märta Ström is the guardian of this child; the FHIR bundle knows neither. */
const MARTA = '198112189876';
const MARTAS_CHILD = '201701012393';

let sim: FhirSim;
let issuer: TestIssuer;
let dataDir: string;
const runtimes: Runtime[] = [];

async function service(env: Record<string, string>) {
  const runtime = await compose(loadConfig({
    DATA_DIR: path.join(dataDir, String(runtimes.length)), PORT: '0', DEMO_AUTH_PORT: '0', LOG_LEVEL: 'silent',
    AUTH_ISSUER: issuer.issuer, SUBSCRIPTION_KEYS: `test:${KEY}`, ...CHAIN_KEY_ENV, RELEASE_POLICY_FILE: 'none', FHIR_ID_ROOT: '1.2.752.99999.1.1', ...env,
  }), createLogger('silent'));
  runtimes.push(runtime);
  return { runtime, ...clientOf(runtime.app, issuer) };
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'pdas-fhir-composition-'));
  [sim, issuer] = await Promise.all([startDemoSim(), TestIssuer.start()]);
});

afterAll(async () => {
  for (const runtime of runtimes) await runtime.close();
  await Promise.all([sim.close(), issuer.close()]);
  await rm(dataDir, { recursive: true, force: true });
});

describe('EHR_ADAPTER=fhir-r4 as npm start composes it', () => {
  it('is ready, reads Tolvan\'s records from the FHIR server, and takes the registry from its tagged RelatedPersons', async () => {
    const s = await service({ EHR_ADAPTER: 'fhir-r4', EHR_BASE_URL: sim.baseUrl });
    expect((await s.call({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
    const token = await s.personToken(TOLVAN);
    const notes = await s.call({ method: 'GET', url: '/patients/journalnotes/?fromDateTime=2025-01-01T00:00:00', token });
    expect(notes.statusCode).toBe(200);
    expect(JSON.stringify(notes.json())).toContain('Composition/comp-0001');
    // The current guardianship lets Tolvan read for Tolve; the expired one (and a protected child) does not.
    expect((await s.call({ method: 'GET', url: '/patients/appointments/', token, patient: TOLVE })).statusCode).toBe(200);
    expect((await s.call({ method: 'GET', url: '/patients/appointments/', token, patient: '200404122384' })).statusCode).toBe(403);
    // A next of kin without the delegation tag gives no right at all.
    const daughter = await s.personToken('196803152385');
    expect((await s.call({ method: 'GET', url: '/patients/appointments/', token: daughter, patient: TOLVAN })).statusCode).toBe(403);
  });
});

describe('DELEGATION_REGISTRY=fhir-r4 beside the embedded EHR', () => {
  it('reads who may act for whom from the FHIR server, not from the EHR, and reports the registry\'s readiness apart', async () => {
    const own = await service({});
    const apart = await service({ DELEGATION_REGISTRY: 'fhir-r4', DELEGATION_REGISTRY_URL: sim.baseUrl });
    const asMarta = async (s: typeof own) => s.call({ method: 'GET', url: '/patients/appointments/', token: await s.personToken(MARTA), patient: MARTAS_CHILD });
    expect((await asMarta(own)).statusCode).toBe(200);
    expect((await asMarta(apart)).statusCode).toBe(403);
    const ready = await apart.call({ method: 'GET', url: '/health/ready' });
    expect(ready.json()).toMatchObject({ checks: { registry: 'up' } });
  });
});

/**
 * Issue 34 item 3: the demo authorization server, demo keys and demo clients start only when nothing
 * names a real deployment (docs/contract.md#demo-mode); any such setting without AUTH_ISSUER stops the
 * start in one line naming AUTH_ISSUER. One function decides (src/start/demo-mode.ts), and every place that
 * needs the decision asks it: loadConfig, the token verifier, the subscription keys, the client ids.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { authClientIds, selectSubscriptionKeys, selectTokenVerifier, type Selection } from '../../src/start/adapter-selection.js';
import { PrometheusMetrics } from '../../src/adapters/metrics/prometheus-metrics.js';
import { ConfigError, loadConfig } from '../../src/start/config.js';
import { demoMode } from '../../src/start/demo-mode.js';
import { createLogger } from '../../src/http/logging.js';
import { Lifecycle } from '../../src/start/lifecycle.js';
import { refusal } from '../support/config-refusal.js';
import { CHAIN_KEY_ENV } from '../support/chain-key.js';
import { selectAuditTrail } from '../../src/start/audit-selection.js';

const dir = mkdtempSync(path.join(tmpdir(), 'pdas-demo-mode-'));
const file = (name: string): string => {
  const p = path.join(dir, name);
  writeFileSync(p, 'placeholder (only readability is checked here)');
  return p;
};
const BASE = { DATA_DIR: path.join(dir, 'data') };
const ISSUER = { AUTH_ISSUER: 'https://login.region.example', SUBSCRIPTION_KEYS: 'app:subscription-key-eeeeeeeeeeee', ...CHAIN_KEY_ENV, RELEASE_POLICY_FILE: 'none' };
const FHIR_ROOT = { FHIR_ID_ROOT: '1.2.752.99999.1.1' };
const SECRET_PASSWORD = 'db-password-not-to-be-printed';
const KEY_VALUE = 'subscription-key-ffffffffffff';
const fail = (message: string) => new ConfigError(message);

/** Each setting that names a real deployment, alone (with what it needs to be valid), and the name the refusal gives it. */
const REAL: ReadonlyArray<readonly [string, Record<string, string>]> = [
  ['SUBSCRIPTION_KEYS', { SUBSCRIPTION_KEYS: `app:${KEY_VALUE}` }],
  ['SUBSCRIPTION_KEYS_FILE', { SUBSCRIPTION_KEYS_FILE: (() => { const p = file('keys'); writeFileSync(p, `app:${KEY_VALUE}\n`); return p; })() }],
  ['DATABASE_URL', { DATABASE_URL: `postgres://pdas:${SECRET_PASSWORD}@db.region.example/pdas` }],
  ['REDIS_URL', { REDIS_URL: 'redis://127.0.0.1:6379' }],
  ['TLS_CERT_FILE', { TLS_CERT_FILE: file('cert.pem'), TLS_KEY_FILE: file('key.pem') }],
  ['EHR_BASE_URL', { EHR_ADAPTER: 'xml-http', EHR_BASE_URL: 'https://ehr.region.example/' }],
  ['EHR_BASE_URL', { EHR_ADAPTER: 'fhir-r4', EHR_BASE_URL: 'https://fhir.region.example/fhir', ...FHIR_ROOT }],
  ['DELEGATION_REGISTRY_URL', { DELEGATION_REGISTRY: 'fhir-r4', DELEGATION_REGISTRY_URL: 'https://registry.region.example/fhir', ...FHIR_ROOT }],
  ['EHR_TLS_CA_FILE', { EHR_ADAPTER: 'xml-http', EHR_BASE_URL: 'https://127.0.0.1:8443', EHR_TLS_CA_FILE: file('ca.pem') }],
  ['FHIR_AUTH', {
    EHR_ADAPTER: 'fhir-r4', EHR_BASE_URL: 'http://127.0.0.1:8091/fhir', ...FHIR_ROOT, FHIR_AUTH: 'smart-backend',
    FHIR_TOKEN_URL: 'http://127.0.0.1:8092/token', FHIR_CLIENT_ID: 'pdas', FHIR_CLIENT_KEY_FILE: file('client-key.pem'),
  }],
];

/** The simulators and the embedded EHR: what a demo may run against. */
const LOCAL: ReadonlyArray<Record<string, string>> = [
  {},
  { EHR_DATA_DIR: dir },
  { EHR_ADAPTER: 'xml-http', EHR_BASE_URL: 'http://127.0.0.1:8090' },
  { EHR_ADAPTER: 'xml-http', EHR_BASE_URL: 'http://localhost:8090/ehr' },
  { EHR_ADAPTER: 'xml-http', EHR_BASE_URL: 'http://[::1]:8090' },
  { EHR_ADAPTER: 'fhir-r4', EHR_BASE_URL: 'http://127.0.0.1:8091/fhir', ...FHIR_ROOT },
  { EHR_ADAPTER: 'fhir-r4', EHR_BASE_URL: 'http://127.0.0.1:8091/fhir', ...FHIR_ROOT, DELEGATION_REGISTRY: 'xml-http', DELEGATION_REGISTRY_URL: 'http://127.0.0.1:8090' },
];

describe('issue 34 item 3: demo mode only when nothing names a real deployment', () => {
  it('issue 34 item 3: the embedded EHR and the simulators on loopback, without AUTH_ISSUER, are demo mode', () => {
    for (const env of LOCAL) {
      expect(refusal({ ...BASE, ...env })).toBe('started');
      expect(demoMode(loadConfig({ ...BASE, ...env }), fail)).toBe(true);
    }
  });

  it.each(REAL)('issue 34 item 3: %s without AUTH_ISSUER stops the start in one line naming AUTH_ISSUER and that setting', (name, env) => {
    const message = refusal({ ...BASE, ...env });
    expect(message).toMatch(/^AUTH_ISSUER /);
    expect(message).toContain(name);
    expect(message).not.toContain('\n');
    expect(message).not.toMatch(new RegExp(`${SECRET_PASSWORD}|${KEY_VALUE}|region\\.example`));
  });

  it.each(REAL)('issue 34 item 3: %s with AUTH_ISSUER starts, and no demo piece runs', (_name, env) => {
    const config = loadConfig({ ...BASE, ...ISSUER, ...env });
    expect(demoMode(config, fail)).toBe(false);
  });

  it('issue 34 item 3: the review\'s case (fhir-r4 at a remote server, subscription keys and a database, no AUTH_ISSUER) names all three', () => {
    const message = refusal({
      ...BASE, EHR_ADAPTER: 'fhir-r4', EHR_BASE_URL: 'https://fhir.region.example/fhir', ...FHIR_ROOT,
      SUBSCRIPTION_KEYS: `app:${KEY_VALUE}`, DATABASE_URL: `postgres://pdas:${SECRET_PASSWORD}@db.region.example/pdas`,
    });
    expect(message).toMatch(/^AUTH_ISSUER /);
    for (const name of ['EHR_BASE_URL', 'SUBSCRIPTION_KEYS', 'DATABASE_URL']) expect(message).toContain(name);
    expect(message).not.toMatch(new RegExp(`${SECRET_PASSWORD}|${KEY_VALUE}`));
  });
});

describe('issue 34 item 3: every place that needs the decision asks the one function, however the config was made', () => {
  const selectionOf = (over: Record<string, unknown>): { dataDir: string; selection: Selection } => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pdas-demo-mode-'));
    return {
      dataDir,
      selection: {
        config: { ...loadConfig({ ...BASE, DATA_DIR: dataDir, DEMO_AUTH_PORT: '0' }), ...over }, clock: { now: () => Date.now() },
        logger: createLogger('silent'), life: new Lifecycle(), metrics: new PrometheusMetrics({ defaultMetrics: false }),
      },
    };
  };

  it('issue 34 item 3: a database beside no AUTH_ISSUER starts no demo issuer, makes no demo key and assumes no demo client', async () => {
    const { dataDir, selection } = selectionOf({ databaseUrl: 'postgres://pdas@db.region.example/pdas' });
    await expect(selectTokenVerifier(selection)).rejects.toThrow(/^AUTH_ISSUER .*DATABASE_URL/);
    await expect(selectSubscriptionKeys(selection)).rejects.toThrow(/^AUTH_ISSUER .*DATABASE_URL/);
    // Issue 44 item 6: nor a demo chain key beside a real store.
    await expect(selectAuditTrail(selection)).rejects.toThrow(/^AUTH_ISSUER .*DATABASE_URL/);
    expect(() => authClientIds(selection.config, ['demo-integration'])).toThrow(/^AUTH_ISSUER .*DATABASE_URL/);
    expect(selection.oauth).toBeUndefined();
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('issue 34 item 3: with nothing real the demo pieces still start (the demo issuer, its key, its clients)', async () => {
    const { dataDir, selection } = selectionOf({});
    try {
      await selectTokenVerifier(selection);
      await selectSubscriptionKeys(selection);
      expect(selection.oauth).toMatchObject({ kind: 'demo' });
      expect(authClientIds(selection.config, ['demo-integration'])).toEqual(['demo-integration']);
      expect(readdirSync(dataDir).sort()).toEqual(expect.arrayContaining(['demo-auth.json', 'demo-subscription-key']));
      // Issue 54: the service reads the demo's registered clients, the patient app's loopback notification endpoints among them.
      expect(selection.registeredClients?.find((c) => c.metadata.client_id === 'patient-app')?.notificationEndpoints).toEqual(['http://127.0.0.1/', 'http://[::1]/']);
    } finally {
      await selection.life.closeAll();
    }
  });
});

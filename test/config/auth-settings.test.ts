import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PrometheusMetrics } from '../../src/adapters/metrics/prometheus-metrics.js';
import { authClientIds, selectSubscriptionKeys } from '../../src/start/adapter-selection.js';
import { CLIENT_CREDENTIALS_CLIENT_IDS } from '../../src/dev/demo-issuer/demo-clients.js';
import { ConfigError, loadConfig } from '../../src/start/config.js';
import { createLogger } from '../../src/http/logging.js';
import { Lifecycle } from '../../src/start/lifecycle.js';
import { refusal } from '../support/config-refusal.js';
import { CHAIN_KEY_ENV } from '../support/chain-key.js';

const BASE = { DATA_DIR: '/tmp/pdas-config-test' };
/** AUTH_ISSUER is the production mode: it needs subscription keys of its own. */
const KEYS = { SUBSCRIPTION_KEYS: 'app:subscription-key-cccccccccccc', ...CHAIN_KEY_ENV, RELEASE_POLICY_FILE: 'none' };

describe('AUTH_CLIENT_IDS (docs/contract.md#settings, #token-kinds)', () => {
  it('issue 12 item 1: reads a comma-separated list, spaces trimmed, empty entries dropped', () => {
    expect(loadConfig({ ...BASE, AUTH_CLIENT_IDS: ' kiosk-a, ,integration-b ,' }).authClientIds).toEqual(['kiosk-a', 'integration-b']);
    expect(loadConfig(BASE).authClientIds).toBeUndefined();
  });

  it('issue 12 item 1: defaults to the demo issuer\'s client-credentials clients while it runs, and to none with AUTH_ISSUER', () => {
    expect(authClientIds(loadConfig(BASE), CLIENT_CREDENTIALS_CLIENT_IDS)).toEqual(['demo-integration', 'checkin-kiosk']);
    expect(authClientIds(loadConfig({ ...BASE, ...KEYS, AUTH_ISSUER: 'https://login.example.test' }), CLIENT_CREDENTIALS_CLIENT_IDS)).toEqual([]);
    expect(authClientIds(loadConfig({ ...BASE, ...KEYS, AUTH_ISSUER: 'https://login.example.test', AUTH_CLIENT_IDS: 'kiosk-a' }), CLIENT_CREDENTIALS_CLIENT_IDS)).toEqual(['kiosk-a']);
    expect(authClientIds(loadConfig({ ...BASE, AUTH_CLIENT_IDS: 'kiosk-a' }), CLIENT_CREDENTIALS_CLIENT_IDS)).toEqual(['kiosk-a']);
  });
});

describe('AUTH_ISSUER (docs/contract.md#settings)', () => {
  it('issue 12 item 11: keeps the issuer exactly as given, a trailing / included, and still refuses what is not a URL', () => {
    for (const issuer of ['https://tenant.eu.auth0.com/', 'https://login.example.test/realms/pdas', 'https://login.example.test/realms/pdas/']) {
      expect(loadConfig({ ...BASE, ...KEYS, AUTH_ISSUER: issuer }).authIssuer).toBe(issuer);
    }
    expect(() => loadConfig({ ...BASE, ...KEYS, AUTH_ISSUER: 'tenant.eu.auth0.com/' })).toThrow(ConfigError);
  });
});

describe('AUTH_JWKS_URL (docs/contract.md#settings)', () => {
  it('keeps the key set address as given, a trailing / included: an issuer may serve its keys only there', () => {
    for (const jwks of ['https://login.example.test/keys/', 'https://login.example.test/.well-known/jwks.json', 'https://login.example.test/keys?tenant=a']) {
      expect(loadConfig({ ...BASE, ...KEYS, AUTH_ISSUER: 'https://login.example.test/', AUTH_JWKS_URL: jwks }).authJwksUrl).toBe(jwks);
    }
    expect(() => loadConfig({ ...BASE, AUTH_JWKS_URL: 'login.example.test/keys/' })).toThrow(ConfigError);
  });
});

/** Subscription keys name a real deployment: they come with an issuer (issue 34 item 3, src/start/demo-mode.ts). */
describe('SUBSCRIPTION_KEYS (docs/contract.md#settings, #token-kinds)', () => {
  const KEY_A = 'subscription-key-aaaaaaaaaaaa';
  const KEY_B = 'subscription-key-bbbbbbbbbbbb';

  it('takes several keys under one name (rotation) and one key repeated under the same name', () => {
    expect(loadConfig({ ...BASE, ...CHAIN_KEY_ENV, RELEASE_POLICY_FILE: 'none', AUTH_ISSUER: 'https://login.example.test', SUBSCRIPTION_KEYS: `app:${KEY_A},app:${KEY_B},app:${KEY_A}` }).subscriptionKeys).toHaveLength(3);
  });

  it('refuses one key under two names, naming the names and never the key: which application called would be a guess', () => {
    let thrown: unknown;
    try {
      loadConfig({ ...BASE, AUTH_ISSUER: 'https://login.example.test', SUBSCRIPTION_KEYS: `kiosk:${KEY_A},app:${KEY_B},portal:${KEY_A}` });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toMatch(/kiosk.*portal/);
    expect((thrown as Error).message).not.toContain(KEY_A);
  });
});

describe('issue 20 item 5e: AUTH_ISSUER without subscription keys (docs/contract.md#settings)', () => {
  it('issue 20 item 5e: refuses to start, in one line naming both settings, instead of making a demo key', () => {
    const message = refusal({ ...BASE, AUTH_ISSUER: 'https://login.example.test' });
    expect(message).toMatch(/^AUTH_ISSUER .*SUBSCRIPTION_KEYS .*SUBSCRIPTION_KEYS_FILE/);
    expect(message).not.toContain('\n');
  });

  it('issue 20 item 5e: starts with either setting, and without AUTH_ISSUER still makes the demo key', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pdas-keys-'));
    const file = path.join(dir, 'keys');
    writeFileSync(file, 'app:subscription-key-dddddddddddd\n');
    expect(refusal({ ...BASE, ...KEYS, AUTH_ISSUER: 'https://login.example.test' })).toBe('started');
    expect(refusal({ ...BASE, ...CHAIN_KEY_ENV, RELEASE_POLICY_FILE: 'none', SUBSCRIPTION_KEYS_FILE: file, AUTH_ISSUER: 'https://login.example.test' })).toBe('started');
    expect(loadConfig(BASE).subscriptionKeys).toBeUndefined();
  });

  it('issue 20 item 5e: the composition root makes no demo key beside a real issuer, however the config was made', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pdas-keys-'));
    const config = { ...loadConfig({ ...BASE, DATA_DIR: dataDir }), authIssuer: 'https://login.example.test' };
    const selection = {
      config, clock: { now: () => Date.now() }, logger: createLogger('silent'), life: new Lifecycle(),
      metrics: new PrometheusMetrics({ defaultMetrics: false }),
    };
    await expect(selectSubscriptionKeys(selection)).rejects.toThrow(/AUTH_ISSUER/);
    expect(readdirSync(dataDir)).toEqual([]);
    await expect(selectSubscriptionKeys({ ...selection, config: { ...config, authIssuer: undefined } })).resolves.toBeDefined();
    expect(readdirSync(dataDir)).toEqual(['demo-subscription-key']);
  });
});

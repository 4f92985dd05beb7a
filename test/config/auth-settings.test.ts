import { describe, expect, it } from 'vitest';
import { authClientIds } from '../../src/adapter-selection.js';
import { ConfigError, loadConfig } from '../../src/config.js';

const BASE = { DATA_DIR: '/tmp/pdas-config-test' };

describe('AUTH_CLIENT_IDS (CONTRACT §1, §2)', () => {
  it('issue 12 item 1: reads a comma-separated list, spaces trimmed, empty entries dropped', () => {
    expect(loadConfig({ ...BASE, AUTH_CLIENT_IDS: ' kiosk-a, ,integration-b ,' }).authClientIds).toEqual(['kiosk-a', 'integration-b']);
    expect(loadConfig(BASE).authClientIds).toBeUndefined();
  });

  it('issue 12 item 1: defaults to the demo issuer\'s client-credentials clients while it runs, and to none with AUTH_ISSUER', () => {
    expect(authClientIds(loadConfig(BASE))).toEqual(['demo-integration', 'checkin-kiosk']);
    expect(authClientIds(loadConfig({ ...BASE, AUTH_ISSUER: 'https://login.example.test' }))).toEqual([]);
    expect(authClientIds(loadConfig({ ...BASE, AUTH_ISSUER: 'https://login.example.test', AUTH_CLIENT_IDS: 'kiosk-a' }))).toEqual(['kiosk-a']);
    expect(authClientIds(loadConfig({ ...BASE, AUTH_CLIENT_IDS: 'kiosk-a' }))).toEqual(['kiosk-a']);
  });
});

describe('AUTH_ISSUER (CONTRACT §1)', () => {
  it('issue 12 item 11: keeps the issuer exactly as given, a trailing / included, and still refuses what is not a URL', () => {
    for (const issuer of ['https://tenant.eu.auth0.com/', 'https://login.example.test/realms/pdas', 'https://login.example.test/realms/pdas/']) {
      expect(loadConfig({ ...BASE, AUTH_ISSUER: issuer }).authIssuer).toBe(issuer);
    }
    expect(() => loadConfig({ ...BASE, AUTH_ISSUER: 'tenant.eu.auth0.com/' })).toThrow(ConfigError);
  });
});

describe('AUTH_JWKS_URL (CONTRACT §1)', () => {
  it('keeps the key set address as given, a trailing / included: an issuer may serve its keys only there', () => {
    for (const jwks of ['https://login.example.test/keys/', 'https://login.example.test/.well-known/jwks.json', 'https://login.example.test/keys?tenant=a']) {
      expect(loadConfig({ ...BASE, AUTH_ISSUER: 'https://login.example.test/', AUTH_JWKS_URL: jwks }).authJwksUrl).toBe(jwks);
    }
    expect(() => loadConfig({ ...BASE, AUTH_JWKS_URL: 'login.example.test/keys/' })).toThrow(ConfigError);
  });
});

describe('SUBSCRIPTION_KEYS (CONTRACT §1, §2)', () => {
  const KEY_A = 'subscription-key-aaaaaaaaaaaa';
  const KEY_B = 'subscription-key-bbbbbbbbbbbb';

  it('takes several keys under one name (rotation) and one key repeated under the same name', () => {
    expect(loadConfig({ ...BASE, SUBSCRIPTION_KEYS: `app:${KEY_A},app:${KEY_B},app:${KEY_A}` }).subscriptionKeys).toHaveLength(3);
  });

  it('refuses one key under two names, naming the names and never the key: which application called would be a guess', () => {
    let thrown: unknown;
    try {
      loadConfig({ ...BASE, SUBSCRIPTION_KEYS: `kiosk:${KEY_A},app:${KEY_B},portal:${KEY_A}` });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toMatch(/kiosk.*portal/);
    expect((thrown as Error).message).not.toContain(KEY_A);
  });
});

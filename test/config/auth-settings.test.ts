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

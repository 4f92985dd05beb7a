import { describe, expect, it } from 'vitest';
import { authClientIds } from '../../src/adapter-selection.js';
import { loadConfig } from '../../src/config.js';

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

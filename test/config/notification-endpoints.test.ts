/**
 * Issue 54: an app's endpoint rules are its registered prefixes (the clients file's
 * notification_endpoints, the demo patient app's loopback ones) and SUBSCRIPTION_ENDPOINTS, which every
 * app may use; an app registered nowhere has SUBSCRIPTION_ENDPOINTS alone.
 */
import { describe, expect, it } from 'vitest';
import type { AuthClient } from '../../src/adapters/auth-server/clients.js';
import { demoAuthClients, PATIENT_APP_ID } from '../../src/dev/demo-issuer/demo-clients.js';
import { endpointRulesOf } from '../../src/start/notification-endpoints.js';

const client = (id: string, notificationEndpoints?: string[]): AuthClient => ({
  metadata: { client_id: id }, apiScopes: [], smart: true, ...(notificationEndpoints === undefined ? {} : { notificationEndpoints }),
});
const DEMO = demoAuthClients({
  clientSecrets: { 'demo-integration': 'secret-a', 'checkin-kiosk': 'secret-b' },
  smart: { publicBaseUrl: () => 'http://127.0.0.1:8080', peopleFor: async () => [], sharingOffered: true, recordGrant: () => Promise.reject(new Error('not here')) },
});
const allowed = (verdict: { allowed: boolean }) => verdict.allowed;

describe('issue 54: the endpoints an app may use', () => {
  it('its own prefixes and SUBSCRIPTION_ENDPOINTS; another app\'s are not its', () => {
    const rulesOf = endpointRulesOf({ endpoints: ['https://shared.region.example/hooks/'], allowLoopback: false },
      [client('halsoappen', ['https://halsoappen.example.se/notify/']), client('journal-sync')]);
    expect(allowed(rulesOf('halsoappen').check('https://halsoappen.example.se/notify/lab'))).toBe(true);
    expect(allowed(rulesOf('halsoappen').check('https://shared.region.example/hooks/x'))).toBe(true);
    expect(allowed(rulesOf('journal-sync').check('https://halsoappen.example.se/notify/lab'))).toBe(false);
    expect(allowed(rulesOf('journal-sync').check('https://shared.region.example/hooks/x'))).toBe(true);
    expect(allowed(rulesOf('unregistered').check('https://shared.region.example/hooks/x'))).toBe(true);
    expect(allowed(rulesOf(undefined).check('https://halsoappen.example.se/notify/lab'))).toBe(false);
    expect(rulesOf('halsoappen')).toBe(rulesOf('halsoappen'));
  });

  it('in demo mode the patient app reaches a receiver on loopback at any port, and no other demo client does', () => {
    const rulesOf = endpointRulesOf({ endpoints: [], allowLoopback: true }, DEMO);
    expect(DEMO.find((c) => c.metadata.client_id === PATIENT_APP_ID)?.notificationEndpoints).toEqual(['http://127.0.0.1/', 'http://[::1]/']);
    for (const endpoint of ['http://127.0.0.1:4567/notifications', 'http://[::1]:9000/']) expect(allowed(rulesOf(PATIENT_APP_ID).check(endpoint)), endpoint).toBe(true);
    expect(allowed(rulesOf('demo-integration').check('http://127.0.0.1:4567/notifications'))).toBe(false);
  });

  it('with SUBSCRIPTION_ALLOW_LOOPBACK=false the demo\'s loopback prefixes are left out, and nothing loopback is allowed', () => {
    const rulesOf = endpointRulesOf({ endpoints: [], allowLoopback: false }, DEMO);
    expect(rulesOf(PATIENT_APP_ID).check('http://127.0.0.1:4567/notifications')).toMatchObject({ allowed: false, problem: expect.stringMatching(/SUBSCRIPTION_ALLOW_LOOPBACK/) });
  });
});

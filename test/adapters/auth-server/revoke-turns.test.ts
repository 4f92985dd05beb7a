/**
 * One revoke of a grant at a time per person (connected-apps.ts; hostile reviews helper-149 LOW-2,
 * helper-150 LOW-B): a person's two posts at once revoke and audit it once, and nobody else's post of
 * the same grant id, however slow, holds the person's own revoke back.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { revokeConnectedApp, type ConnectedAppsContext } from '../../../src/adapters/auth-server/connected-apps.js';

const MARTA = '198112189876';
const TOLVAN = '191212121212';

/** One grant of Märta's, its id new as a grant's is (the process remembers each withdrawal it recorded for a minute). */
function context(): { context: ConnectedAppsContext; grantId: string; grants: Map<string, string>; recorded: string[]; hangFor: Set<string> } {
  const grantId = `G-${randomUUID()}`;
  const grants = new Map([[grantId, MARTA]]);
  const recorded: string[] = [];
  const hangFor = new Set<string>();
  const made = {
    issuer: 'http://issuer.invalid',
    provider: {
      Grant: {
        find: async (id: string) => (grants.has(id) ? { clientId: 'an-app', openid: { scope: 'openid' }, resources: {}, iat: 1 } : undefined),
        adapter: { destroy: async (id: string) => void grants.delete(id) },
      },
      Client: { find: async () => undefined },
      RefreshToken: { revokeByGrantId: async () => undefined }, AuthorizationCode: { revokeByGrantId: async () => undefined }, AccessToken: { revokeByGrantId: async () => undefined },
    },
    picks: {
      opening: async (accountId: string) => [...grants].filter(([, owner]) => owner === accountId)
        .map(([grantId]) => ({ grantId, accountId, clientId: 'an-app', patientId: accountId, fhirUser: `Patient/${accountId}` })),
      forget: async () => undefined,
    },
    smart: {
      peopleFor: (accountId: string) => (hangFor.has(accountId) ? new Promise(() => undefined) : Promise.resolve([{ patientId: accountId, name: 'N', basis: 'self' }])),
      recordGrant: async (event: { kind: string }) => void recorded.push(event.kind),
      publicBaseUrl: () => 'http://issuer.invalid',
    },
  } as unknown as ConnectedAppsContext;
  return { context: made, grantId, grants, recorded, hangFor };
}

describe('revoking a connected app', () => {
  it('revokes and audits a grant posted twice at once once', async () => {
    const { context: c, grantId, grants, recorded } = context();
    const both = await Promise.all([revokeConnectedApp(c, MARTA, grantId, '127.0.0.1'), revokeConnectedApp(c, MARTA, grantId, '127.0.0.1')]);
    expect(both.map((app) => app?.grantId)).toEqual([grantId, undefined]);
    expect([grants.has(grantId), recorded]).toEqual([false, ['revoked']]);
  });

  it('does not hold the person\'s revoke behind someone else\'s post of the same grant id', async () => {
    const { context: c, grantId, grants, recorded, hangFor } = context();
    hangFor.add(TOLVAN);
    void revokeConnectedApp(c, TOLVAN, grantId, '127.0.0.1');
    const mine = await Promise.race([revokeConnectedApp(c, MARTA, grantId, '127.0.0.1'), new Promise((late) => setTimeout(() => late('held'), 1_000))]);
    expect([(mine as { grantId?: string }).grantId, grants.has(grantId), recorded]).toEqual([grantId, false, ['revoked']]);
  });
});

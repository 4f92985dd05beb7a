/**
 * One revoke of a grant at a time per person (connected-apps.ts; hostile reviews helper-149 LOW-2,
 * helper-150 LOW-B): a person's two posts at once revoke and audit it once, and nobody else's post of
 * the same grant id, however slow, holds the person's own revoke back.
 */
import { describe, expect, it } from 'vitest';
import { revokeConnectedApp, type ConnectedAppsContext } from '../../../src/adapters/auth-server/connected-apps.js';

const MARTA = '198112189876';
const TOLVAN = '191212121212';

function context(): { context: ConnectedAppsContext; grants: Map<string, string>; recorded: string[]; hangFor: Set<string> } {
  const grants = new Map([['G1', MARTA]]);
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
  return { context: made, grants, recorded, hangFor };
}

describe('revoking a connected app', () => {
  it('revokes and audits a grant posted twice at once once', async () => {
    const { context: c, grants, recorded } = context();
    const both = await Promise.all([revokeConnectedApp(c, MARTA, 'G1', '127.0.0.1'), revokeConnectedApp(c, MARTA, 'G1', '127.0.0.1')]);
    expect(both.map((app) => app?.grantId)).toEqual(['G1', undefined]);
    expect([grants.has('G1'), recorded]).toEqual([false, ['revoked']]);
  });

  it('does not hold the person\'s revoke behind someone else\'s post of the same grant id', async () => {
    const { context: c, grants, recorded, hangFor } = context();
    hangFor.add(TOLVAN);
    void revokeConnectedApp(c, TOLVAN, 'G1', '127.0.0.1');
    const mine = await Promise.race([revokeConnectedApp(c, MARTA, 'G1', '127.0.0.1'), new Promise((late) => setTimeout(() => late('held'), 1_000))]);
    expect([(mine as { grantId?: string }).grantId, grants.has('G1'), recorded]).toEqual(['G1', false, ['revoked']]);
  });
});

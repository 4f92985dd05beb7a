/**
 * Hostile reviews helper-149 LOW-3 and helper-150 LOW-C: a revoke done, the list read after it failed.
 * The post answered 503 "could not be read or changed", and then sent the browser to a page whose list
 * read failed the same way: either way the person was told nothing changed. The post now answers the
 * page with the revoke's notice and says the list cannot be shown just now.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { connectedAppsFailed, handleConnectedApps, type ConnectedAppsDeps } from '../../../src/adapters/auth-server/connected-apps-http.js';
import { CSRF_FIELD, FormTokens } from '../../../src/adapters/auth-server/form-tokens.js';

const MARTA = '198112189876';
let server: Server | undefined;
afterAll(async () => new Promise<void>((done) => (server === undefined ? done() : server.close(() => done()))));

describe('a revoke whose list cannot be read after it', () => {
  it('says the access was revoked, and that the list cannot be shown just now', async () => {
    const grants = new Map([['G1', { clientId: 'an-app' }]]);
    let storeDown = false;
    const recorded: string[] = [];
    const formTokens = new FormTokens(['k'.repeat(32)]);
    const session = { id: 'S1', accountId: MARTA };
    const origin = { value: '' };
    const deps = {
      issuer: 'http://issuer.invalid', get origin() { return origin.value; }, banner: 'demo', formTokens,
      sessions: { current: async () => session },
      clients: { get: () => undefined, managesGrantsFrom: () => false },
      verifyToken: async () => undefined,
      provider: {
        Grant: {
          find: async (id: string) => { const g = grants.get(id); return g === undefined ? undefined : { clientId: g.clientId, openid: { scope: 'openid' }, resources: {}, iat: 1 }; },
          adapter: { destroy: async (id: string) => { grants.delete(id); storeDown = true; } },
        },
        Client: { find: async () => undefined },
        RefreshToken: { revokeByGrantId: async () => undefined }, AuthorizationCode: { revokeByGrantId: async () => undefined }, AccessToken: { revokeByGrantId: async () => undefined },
      },
      picks: {
        opening: async () => {
          if (storeDown) throw new Error('store down');
          return [...grants.keys()].map((grantId) => ({ grantId, accountId: MARTA, clientId: 'an-app', patientId: MARTA, fhirUser: `Patient/${MARTA}` }));
        },
        forget: async () => undefined,
      },
      smart: {
        peopleFor: async () => [{ patientId: MARTA, name: 'Märta Ström', basis: 'self' }],
        recordGrant: async (event: { kind: string }) => void recorded.push(event.kind),
        publicBaseUrl: () => 'http://issuer.invalid',
      },
    } as unknown as ConnectedAppsDeps;
    server = createServer((req, res) => void handleConnectedApps(req, res, deps).catch(() => connectedAppsFailed(req, res, deps)));
    await new Promise<void>((listening) => server?.listen(0, '127.0.0.1', () => listening()));
    origin.value = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const csrf = formTokens.issue({ session: session.id, accountId: MARTA });
    const posted = await request(`${origin.value}/connected-apps`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: origin.value }, body: `${CSRF_FIELD}=${encodeURIComponent(csrf)}&grant=G1`,
    });
    const body = await posted.body.text();
    expect([grants.has('G1'), recorded]).toEqual([false, ['revoked']]);
    expect(posted.statusCode).toBe(200);
    expect(body).toContain('The access was revoked.');
    expect(body).toContain('The list of your apps cannot be shown just now: reload this page in a minute.');
    expect(body).not.toMatch(/could not be read or changed|No app holds access/);
  });
});

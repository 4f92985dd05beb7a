/**
 * Hostile reviews helper-149 LOW-3 and helper-150 LOW-C: a revoke done, the list read after it failed.
 * The post answered 503 "could not be read or changed", and then sent the browser to a page whose list
 * read failed the same way: either way the person was told nothing changed. The post now answers the
 * page with the revoke's notice and says the list cannot be shown just now.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { connectedAppsFailed, handleConnectedApps, type ConnectedAppsDeps } from '../../../src/adapters/auth-server/connected-apps-http.js';
import { CSRF_FIELD, FormTokens } from '../../../src/adapters/auth-server/form-tokens.js';

const MARTA = '198112189876';
const servers: Server[] = [];
afterAll(async () => Promise.all(servers.map(async (server) => new Promise<void>((done) => server.close(() => done())))));

/**
 * A page over one grant of Märta's, `grant` (an id of its own, as a grant's is: the process remembers
 * each withdrawal it recorded for a minute), whose store fails once the grant is ended; `post` posts its revoke form.
 * With `posts`, the revoke's audit record waits until that many posts have been read whole (and so have
 * asked to revoke), as a double click's second post does while the first is still being revoked.
 */
async function listDownAfterRevoke(posts = 1) {
    const grant = `G-${randomUUID()}`;
    let reached = 0;
    let allIn: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => { allIn = resolve; });
    const grants = new Map([[grant, { clientId: 'an-app' }]]);
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
        recordGrant: async (event: { kind: string }) => {
          await arrived;
          recorded.push(event.kind);
        },
        publicBaseUrl: () => 'http://issuer.invalid',
      },
    } as unknown as ConnectedAppsDeps;
    const server = createServer((req, res) => {
      // Once read whole, the page asks to revoke in the same turn of the event loop; the next one lets the audit go on.
      req.on('end', () => { if (++reached >= posts) setImmediate(allIn); });
      void handleConnectedApps(req, res, deps).catch(() => connectedAppsFailed(req, res, deps));
    });
    servers.push(server);
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', () => listening()));
    origin.value = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const csrf = formTokens.issue({ session: session.id, accountId: MARTA });
    const post = async () => {
      const posted = await request(`${origin.value}/connected-apps`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: origin.value }, body: `${CSRF_FIELD}=${encodeURIComponent(csrf)}&grant=${grant}`,
      });
      return { status: posted.statusCode, body: await posted.body.text() };
    };
    return { grant, grants, recorded, post };
}

/** What the page says of the list, and the link that opens it again (a GET: reloading the post would send it again). */
const LIST_DOWN = 'The list of your apps cannot be shown just now. <a href="/connected-apps">Open the list again</a> in a minute.';

describe('a revoke whose list cannot be read after it', () => {
  it('says the access was revoked, and that the list cannot be shown just now', async () => {
    const { grant, grants, recorded, post } = await listDownAfterRevoke();
    const { status, body } = await post();
    expect([grants.has(grant), recorded]).toEqual([false, ['revoked']]);
    expect(status).toBe(200);
    expect(body).toContain('The access was revoked.');
    expect(body).toContain(LIST_DOWN);
    expect(body).not.toMatch(/could not be read or changed|No app holds access/);
  });

  // Hostile review helper-151, LOW-1: the second post of a double click read the list first, and answered the 503.
  it('tells the second post of a double click that the app no longer holds access, never that nothing could be changed', async () => {
    const { recorded, post } = await listDownAfterRevoke(2);
    const answers = await Promise.all([post(), post()]);
    expect(recorded).toEqual(['revoked']);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.map((a) => /The access was revoked\.|That app no longer holds access here\./.exec(a.body)?.[0]).sort())
      .toEqual(['That app no longer holds access here.', 'The access was revoked.']);
    for (const { body } of answers) expect(body).toContain(LIST_DOWN);
  });
});

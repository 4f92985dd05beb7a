// The sign-in as a region serves it, over https (TLS_CERT_FILE, a certificate of the test's own CA), with
// one public SMART app of the test file's own: the refused logins a file makes are then never counted by
// another file's audit checks of the default app. Its browsers and its client trust the test's CA.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent } from 'undici';
import { HttpBrowser } from '../dev/demo-issuer/http-browser.js';
import { adminPool, dropSchema } from './database.js';
import { APP_REDIRECT, startSignInService, type SignInService } from './sign-in-service.js';
import { TestPki } from './test-pki.js';

export interface HttpsSignIn {
  service: SignInService;
  /** An HTTP client that trusts the test's CA (the token endpoint, a raw request). */
  agent: Agent;
  /** The test's CA, for a client of node:https. */
  ca: Buffer;
  /** A new browser that trusts the test's CA. */
  browser(): HttpBrowser;
  /** An authorization request of the file's app, and its PKCE verifier. */
  authorization(scope?: string): { url: string; verifier: string };
  close(): Promise<void>;
}

export async function startHttpsSignIn(app: { id: string; name: string }): Promise<HttpsSignIn> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pdas-sign-in-https-'));
  const pki = new TestPki(dir);
  const service = await startSignInService({
    tls: pki.server('sign-in'),
    clients: [{
      client_id: app.id, client_name: app.name, token_endpoint_auth_method: 'none', redirect_uris: [APP_REDIRECT],
      scope: 'openid fhirUser launch/patient patient/*.rs', offline_access: true,
    }],
  });
  const agent = new Agent({ connect: { ca: pki.ca } });
  return {
    service, agent, ca: pki.ca,
    browser: () => new HttpBrowser({}, agent),
    authorization(scope = 'openid fhirUser launch/patient offline_access patient/*.rs') {
      const verifier = randomBytes(32).toString('base64url');
      const url = new URL(`${service.issuer}/auth`);
      for (const [name, value] of Object.entries({
        response_type: 'code', client_id: app.id, redirect_uri: APP_REDIRECT, scope,
        state: randomBytes(8).toString('base64url'), aud: `${service.base}/fhir`, code_challenge_method: 'S256',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      })) url.searchParams.set(name, value);
      return { url: url.href, verifier };
    },
    async close() {
      await service.close();
      const pool = adminPool();
      await dropSchema(pool, service.schema);
      await pool.end();
      await agent.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

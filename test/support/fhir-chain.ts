/**
 * Two instances of the service chained by FHIR (docs/fhir-api.md#one-dialect-in-and-out):
 *
 * - A: the real app over the embedded EHR (startTestApp), listening on loopback, its FHIR API's links
 *   made from the address it listens at (PUBLIC_BASE_URL's default);
 * - B: the service as `npm start` composes it (loadConfig + compose) with `EHR_ADAPTER=fhir-r4`,
 *   `EHR_BASE_URL` at A's `/fhir`, `FHIR_AUTH=smart-backend` and `DELEGATION_REGISTRY=embedded`
 *   (the demo people's registry, generated for the same moment as A's records): B's FHIR server serves
 *   the records alone, as a region's EHR with its registry elsewhere does;
 * - a token endpoint on loopback for B's client-credentials grant: it verifies B's `private_key_jwt`
 *   assertion against the public key registered for B's client and answers an access token signed by
 *   A's issuer for a client A lists (`client_id` kiosk-1, `system/*.read`), so A takes B's requests as
 *   a client token's.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair, jwtVerify, type CryptoKey } from 'jose';
import { DEMO_FHIR_SETTINGS } from '../../src/dev/demo-data/fhir/bundle.js';
import type { ReleasePolicy } from '../../src/domain/release/release-policy.js';
import { createLogger } from '../../src/http/logging.js';
import { loadConfig } from '../../src/start/config.js';
import { compose, type Runtime } from '../../src/start/container.js';
import { clientOf, type AppClient } from './app-wiring.js';
import { KEY, startTestApp, ZONE, type TestApp } from './test-app.js';
import { TEST_CLIENT_ID, TestIssuer } from './test-issuer.js';
import { CHAIN_KEY_ENV } from './chain-key.js';

/** The scope B asks its token endpoint for (FHIR_SCOPE): every type, read only, as a back-end client. */
export const CHAIN_SCOPE = 'system/*.read';
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** SMART Backend Services: an assertion lives at most five minutes. */
const LONGEST_ASSERTION_S = 300;

/** What the token endpoint saw: the grants it made, and why it refused the others. */
export interface TokenEndpoint {
  url: string;
  /** The access tokens it answered, in order. */
  granted: string[];
  /** The reason of each refusal (a fixed text: nothing of the request). */
  refused: string[];
  close(): Promise<void>;
}

export interface FhirChain {
  /** The first instance: the embedded EHR, its FHIR API at `${address}/fhir`. */
  a: TestApp;
  address: string;
  /** The second instance: `EHR_ADAPTER=fhir-r4` against A, as compose() builds it; person tokens of its own issuer. */
  b: AppClient & { runtime: Runtime; issuer: TestIssuer; logLines: string[] };
  tokens: TokenEndpoint;
  /** B's client key file (PKCS #8 PEM, ES384) and the key id registered for it at the token endpoint. */
  clientKey: { file: string; kid: string };
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage): Promise<string> => new Promise((resolve, reject) => {
  let body = '';
  req.on('data', (c: Buffer) => { body += c.toString(); });
  req.on('end', () => resolve(body));
  req.on('error', reject);
});

/**
 * SMART Backend Services' token endpoint for one registered client: the client-credentials grant with a
 * `private_key_jwt` assertion, verified against the client's public key (ES384, by its kid), issued and
 * subject to the client, for this endpoint, short-lived and not used before. `mint` makes the access token.
 */
export async function startTokenEndpoint(client: { id: string; publicKey: CryptoKey; kid: string; scope: string }, mint: (scope: string) => Promise<string>): Promise<TokenEndpoint> {
  const seenJti = new Set<string>();
  const endpoint: TokenEndpoint = { url: '', granted: [], refused: [], close: async () => undefined };
  const refuse = (res: ServerResponse, status: number, error: string, reason: string): void => {
    endpoint.refused.push(reason);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error }));
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const form = new URLSearchParams(await readBody(req));
      if (req.method !== 'POST' || !String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) return refuse(res, 400, 'invalid_request', 'not a form POST');
      if (form.get('grant_type') !== 'client_credentials') return refuse(res, 400, 'unsupported_grant_type', 'grant_type');
      if (form.get('client_assertion_type') !== ASSERTION_TYPE) return refuse(res, 400, 'invalid_client', 'client_assertion_type');
      const scope = form.get('scope') ?? '';
      if (scope !== client.scope) return refuse(res, 400, 'invalid_scope', 'scope');
      let claims;
      try {
        const verified = await jwtVerify(form.get('client_assertion') ?? '', client.publicKey, {
          algorithms: ['ES384'], issuer: client.id, subject: client.id, audience: endpoint.url, requiredClaims: ['exp', 'jti'],
        });
        if (verified.protectedHeader.kid !== client.kid) return refuse(res, 401, 'invalid_client', 'kid');
        claims = verified.payload;
      } catch {
        return refuse(res, 401, 'invalid_client', 'assertion');
      }
      if ((claims.exp ?? 0) - Math.floor(Date.now() / 1000) > LONGEST_ASSERTION_S) return refuse(res, 401, 'invalid_client', 'assertion lifetime');
      if (seenJti.has(String(claims.jti))) return refuse(res, 401, 'invalid_client', 'assertion replayed');
      seenJti.add(String(claims.jti));
      const token = await mint(scope);
      endpoint.granted.push(token);
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 300, scope }));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
  endpoint.close = () => new Promise((resolve) => server.close(() => resolve()));
  return endpoint;
}

export interface FhirChainOptions {
  /** A's RELEASE_POLICY_FILE policy; none by default. What A withholds never reaches B. */
  releasePolicy?: ReleasePolicy;
  /**
   * B's own RELEASE_POLICY_FILE; `none` by default. A holds B's client token to the rules a client
   * token is held to, never to a person's own age limit: the door facing the person applies the policy
   * with its own file (docs/release-policy.md#a-chain-of-instances).
   */
  bReleasePolicyFile?: string;
  /** Changes A's generated demo folder before A reads it. */
  editEhr?: (ehrDir: string) => Promise<void>;
}

export async function startFhirChain(options: FhirChainOptions = {}): Promise<FhirChain> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pdas-fhir-chain-'));
  // Both instances read one moment: A's demo records and B's registry are generated for it.
  const a = await startTestApp({
    ...(options.releasePolicy === undefined ? {} : { releasePolicy: options.releasePolicy }),
    ...(options.editEhr === undefined ? {} : { editEhr: options.editEhr }),
  });
  const address = await a.app.listen({ port: 0, host: '127.0.0.1' });
  // PUBLIC_BASE_URL's default: the address listened at (src/start/container.ts `listening`).
  if (a.fhir === undefined) throw new Error('A serves no FHIR API');
  a.fhir.publicBaseUrl = address;

  const pair = await generateKeyPair('ES384', { extractable: true });
  const keyFile = path.join(dir, 'fhir-client-key.pem');
  await writeFile(keyFile, await exportPKCS8(pair.privateKey), { mode: 0o600 });
  // readSigningKey names a PEM's key by its RFC 7638 thumbprint: the kid the region registers.
  const kid = await calculateJwkThumbprint(await exportJWK(pair.publicKey), 'sha256');
  const tokens = await startTokenEndpoint({ id: TEST_CLIENT_ID, publicKey: pair.publicKey, kid, scope: CHAIN_SCOPE },
    (scope) => a.issuer.sign({ sub: TEST_CLIENT_ID, client_id: TEST_CLIENT_ID, scope }));

  const issuer = await TestIssuer.start();
  const logLines: string[] = [];
  const runtime = await compose(loadConfig({
    DATA_DIR: path.join(dir, 'b'), PORT: '0', DEMO_AUTH_PORT: '0', EHR_TIMEZONE: ZONE,
    AUTH_ISSUER: issuer.issuer, SUBSCRIPTION_KEYS: `test:${KEY}`, ...CHAIN_KEY_ENV, RATE_LIMIT_MAX: '100000', FHIR_API: 'off',
    EHR_ADAPTER: 'fhir-r4', EHR_BASE_URL: `${address}/fhir`, EHR_TIMEOUT_MS: '20000',
    FHIR_AUTH: 'smart-backend', FHIR_TOKEN_URL: tokens.url, FHIR_CLIENT_ID: TEST_CLIENT_ID, FHIR_CLIENT_KEY_FILE: keyFile, FHIR_SCOPE: CHAIN_SCOPE,
    // The dialect's settings, as A's FHIR API has them (test/support/test-app.ts).
    FHIR_ID_ROOT: DEMO_FHIR_SETTINGS.idRoot, FHIR_VIDEO_ACTION_ID_SYSTEM: DEMO_FHIR_SETTINGS.videoActionIdSystem,
    DELEGATION_REGISTRY: 'embedded', RELEASE_POLICY_FILE: options.bReleasePolicyFile ?? 'none',
  }), createLogger('info', { write: (line: string) => void logLines.push(line) }), a.clock);
  return {
    a, address, tokens, clientKey: { file: keyFile, kid },
    b: { ...clientOf(runtime.app, issuer), runtime, issuer, logLines },
    close: async () => {
      await runtime.close();
      await issuer.close();
      await tokens.close();
      await a.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

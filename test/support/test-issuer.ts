import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
type PrivateKey = KeyPair['privateKey'];

/**
 * The keys TestIssuers sign with, made once per process: an issuer's first key is the first of
 * these, its next after a rotation the second, and so on. Making an RSA key took 50 to 150 ms here
 * (more on a loaded machine), and the suite starts hundreds of issuers, most in a worker whose files
 * share this module (vitest.config.ts, `isolate: false`). Two issuers of a process may so publish the
 * same key under the same kid, which a test never relies on: a token names its issuer (`iss`, each
 * its own port), the verifier takes keys from that issuer alone, and a key no issuer publishes is
 * made afresh (signWithForeignKey).
 */
const SHARED_KEYS: Array<Promise<KeyPair>> = [];
const sharedKey = (n: number): Promise<KeyPair> => (SHARED_KEYS[n] ??= generateKeyPair('RS256'));

/** The client id the test apps list in AUTH_CLIENT_IDS: a token carrying it and no patient claim is a client token. */
export const TEST_CLIENT_ID = 'kiosk-1';

/**
 * A minimal OpenID issuer on loopback for tests: discovery, a JWKS, and a signer that can forge
 * every kind of bad token (wrong key, wrong claims, odd headers). Counts JWKS fetches.
 */
export class TestIssuer {
  jwksFetches = 0;
  jwksAvailable = true;
  /** Served at /jwks instead of the keys when set (e.g. `{ keys: [] }`). */
  jwksBody: unknown = undefined;
  private server: Server | undefined;
  private keys: Array<{ kid: string; privateKey: PrivateKey; jwk: JWK }> = [];
  /** Keys this issuer has made: the index of its next in SHARED_KEYS. */
  private made = 0;
  issuer = '';

  /** `issuerPath` is appended to the origin as is, e.g. `/` for an Auth0-style issuer with a trailing slash. */
  static async start(options: { issuerPath?: string } = {}): Promise<TestIssuer> {
    const issuer = new TestIssuer();
    issuer.issuerPath = options.issuerPath ?? '';
    await issuer.rotate();
    await issuer.listen();
    return issuer;
  }

  private issuerPath = '';
  private origin = '';

  get jwksUrl(): string {
    return `${this.origin}/jwks`;
  }

  /** Adds a new signing key (it becomes the one that signs) and publishes it. */
  async rotate(kid = `key-${this.keys.length + 1}`): Promise<void> {
    const { privateKey, publicKey } = await sharedKey(this.made++);
    this.keys.unshift({ kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } });
  }

  /** Stops publishing the key `kid` (a key the issuer has retired or lost); tokens it signed can still be presented. */
  withdraw(kid: string): void {
    if (!this.keys.some((k) => k.kid === kid)) throw new Error(`no key ${kid}`);
    this.keys = this.keys.filter((k) => k.kid !== kid);
  }

  /** A valid access token for the API unless `claims`/`header` override something. */
  async sign(claims: JWTPayload & Record<string, unknown>, header: Record<string, unknown> = {}, key = this.keys[0]): Promise<string> {
    if (!key) throw new Error('no key');
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ iss: this.issuer, aud: 'patient-data-access', sub: 'subject-1', iat: now, exp: now + 600, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'at+jwt', ...header })
      .sign(key.privateKey);
  }

  /** A token signed by a key the JWKS does not publish, with a kid it does publish. */
  async signWithForeignKey(claims: Record<string, unknown>): Promise<string> {
    const { privateKey } = await generateKeyPair('RS256');
    const kid = this.keys[0]?.kid ?? 'key-1';
    return this.sign(claims, {}, { kid, privateKey, jwk: {} });
  }

  publicJwk(): JWK {
    return this.keys[0]?.jwk ?? {};
  }

  private listen(): Promise<void> {
    this.server = createServer((req, res) => {
      // OpenID Discovery §4: the issuer's terminating '/' is removed before the well-known path is appended.
      if (req.url === `${this.issuerPath.replace(/\/$/, '')}/.well-known/openid-configuration`) {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ issuer: this.issuer, jwks_uri: this.jwksUrl }));
        return;
      }
      if (req.url === '/jwks') {
        this.jwksFetches++;
        if (!this.jwksAvailable) {
          res.statusCode = 500;
          res.end();
          return;
        }
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(this.jwksBody ?? { keys: this.keys.map((k) => k.jwk) }));
        return;
      }
      res.statusCode = 404;
      res.end();
    });
    return new Promise((resolve) => {
      this.server?.listen(0, '127.0.0.1', () => {
        this.origin = `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
        this.issuer = `${this.origin}${this.issuerPath}`;
        resolve();
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

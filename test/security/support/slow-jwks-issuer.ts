import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { base64url, exportJWK, SignJWT, type JWK } from 'jose';
import { TEST_CLIENT_ID } from '../../support/test-issuer.js';

/**
 * A loopback OpenID issuer for the token-attack suites, next to test/support/test-issuer.ts: any mix
 * of key types in its JWKS (RSA with and without `alg`, EC, OKP, and a symmetric `oct` key that must
 * never be usable), a JWKS that can be down, slow (answers after `delayMs`) or hang (never answers),
 * and counters of every request it got. It signs payloads exactly in the key order given, so tests
 * can build tokens that share a long prefix.
 */
export type KeyKind = 'RS256' | 'RSA-any' | 'ES256' | 'EdDSA' | 'oct';

export interface IssuerKey {
  kid: string;
  kind: KeyKind;
  /** What the JWKS publishes for it. */
  jwk: JWK;
  /** A Node key object, so jose signs with it under any algorithm its type allows (RS* and PS* alike). */
  privateKey?: KeyObject;
  /** The shared secret of an `oct` key (published in the JWKS, as a careless server would). */
  secret?: Uint8Array;
}

export type JwksMode = 'ok' | 'down' | 'slow' | 'hang';

export class SlowJwksIssuer {
  /** Requests to /jwks (and to the discovery document), and to anything at all. */
  jwksFetches = 0;
  discoveryFetches = 0;
  requests = 0;
  mode: JwksMode = 'ok';
  /** How long a `slow` JWKS takes to answer. */
  delayMs = 0;
  issuer = '';
  readonly keys: IssuerKey[] = [];
  private server: Server | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();

  static async start(kinds: ReadonlyArray<[string, KeyKind]> = [['rsa-1', 'RS256']]): Promise<SlowJwksIssuer> {
    const issuer = new SlowJwksIssuer();
    for (const [kid, kind] of kinds) await issuer.addKey(kid, kind);
    await issuer.listen();
    return issuer;
  }

  get jwksUrl(): string {
    return `${this.issuer}/jwks`;
  }

  key(kid: string): IssuerKey {
    const key = this.keys.find((k) => k.kid === kid);
    if (!key) throw new Error(`no key ${kid}`);
    return key;
  }

  /** Generates a key of `kind` and publishes it under `kid`. */
  async addKey(kid: string, kind: KeyKind): Promise<IssuerKey> {
    let key: IssuerKey;
    if (kind === 'oct') {
      const secret = new Uint8Array(randomBytes(32));
      key = { kid, kind, secret, jwk: { kty: 'oct', k: base64url.encode(secret), kid, alg: 'HS256', use: 'sig' } };
    } else {
      const { privateKey, publicKey } = kind === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : kind === 'EdDSA' ? generateKeyPairSync('ed25519') : generateKeyPairSync('rsa', { modulusLength: 2048 });
      const jwk: JWK = { ...(await exportJWK(publicKey)), kid, use: 'sig' };
      if (kind !== 'RSA-any') jwk.alg = kind;
      key = { kid, kind, jwk, privateKey };
    }
    this.keys.push(key);
    return key;
  }

  /** Standard claims of a valid token at `nowS` (a client token of TEST_CLIENT_ID unless a patient is added), to spread first or last as a test needs. */
  claims(nowS: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return { iss: this.issuer, aud: 'patient-data-access', sub: 'subject-1', client_id: TEST_CLIENT_ID, iat: nowS - 10, exp: nowS + 600, ...overrides };
  }

  /** Signs `payload` as given (key order kept) with the private key of `kid`, under `alg` (default: the key's). */
  async sign(payload: Record<string, unknown>, kid: string, header: Record<string, unknown> = {}): Promise<string> {
    const key = this.key(kid);
    if (!key.privateKey) throw new Error(`key ${kid} has no private key`);
    const alg = (header.alg as string | undefined) ?? (key.kind === 'RSA-any' ? 'RS256' : key.kind);
    return new SignJWT(payload).setProtectedHeader({ typ: 'at+jwt', kid, ...header, alg }).sign(key.privateKey);
  }

  private answer(res: ServerResponse, body: unknown): void {
    if (this.mode === 'down') {
      res.statusCode = 500;
      res.end();
      return;
    }
    if (this.mode === 'hang') return;
    const send = (): void => {
      if (res.destroyed) return;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
    if (this.mode === 'slow') {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        send();
      }, this.delayMs);
      this.timers.add(timer);
      return;
    }
    send();
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    this.requests++;
    if (req.url === '/.well-known/openid-configuration') {
      this.discoveryFetches++;
      this.answer(res, { issuer: this.issuer, jwks_uri: this.jwksUrl });
      return;
    }
    if (req.url === '/jwks') {
      this.jwksFetches++;
      this.answer(res, { keys: this.keys.map((k) => k.jwk) });
      return;
    }
    res.statusCode = 404;
    res.end();
  }

  private listen(): Promise<void> {
    this.server = createServer((req, res) => this.handle(req, res));
    return new Promise((resolve) => {
      this.server?.listen(0, '127.0.0.1', () => {
        this.issuer = `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
        resolve();
      });
    });
  }

  /** Closes at once, hanging and delayed answers included. */
  close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const server = this.server;
    if (!server) return Promise.resolve();
    return new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}

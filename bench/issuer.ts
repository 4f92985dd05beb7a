/**
 * A loopback OpenID issuer for the bench: discovery, a JWKS with one RS256 key, and a signer for
 * access tokens the service accepts. Synthetic; it exists only while the bench runs.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

export const AUDIENCE = 'patient-data-access';

export class BenchIssuer {
  issuer = '';
  private server: Server | undefined;

  private constructor(private readonly privateKey: PrivateKey, private readonly jwk: JWK) {}

  static async start(): Promise<BenchIssuer> {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const issuer = new BenchIssuer(privateKey, { ...(await exportJWK(publicKey)), kid: 'bench-1', alg: 'RS256', use: 'sig' });
    await issuer.listen();
    return issuer;
  }

  get jwksUrl(): string {
    return `${this.issuer}/jwks`;
  }

  /** A person token for `patient` with `scope`, valid for an hour. */
  sign(patient: string, scope: string, extra: Record<string, unknown> = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ iss: this.issuer, aud: AUDIENCE, sub: `bench-${patient.slice(-4)}`, patient, scope, iat: now, exp: now + 3600, ...extra })
      .setProtectedHeader({ alg: 'RS256', kid: 'bench-1', typ: 'at+jwt' })
      .sign(this.privateKey);
  }

  private listen(): Promise<void> {
    this.server = createServer((req, res) => {
      if (req.url === '/.well-known/openid-configuration') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ issuer: this.issuer, jwks_uri: this.jwksUrl }));
      } else if (req.url === '/jwks') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ keys: [this.jwk] }));
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
    return new Promise((resolve) => {
      this.server?.listen(0, '127.0.0.1', () => {
        this.issuer = `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
        resolve();
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

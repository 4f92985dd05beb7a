/**
 * A loopback OpenID issuer for the soak: discovery, a JWKS with one RS256 key, and a signer for
 * good tokens and for the bad ones the load sends on purpose (expired, signed by a key the JWKS
 * does not hold). Synthetic identities only.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

export const AUDIENCE = 'patient-data-access';
const KID = 'soak-key-1';

export class SoakIssuer {
  issuer = '';
  private constructor(private readonly server: Server, private readonly key: PrivateKey, private readonly foreignKey: PrivateKey) {}

  static async start(): Promise<SoakIssuer> {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const foreign = await generateKeyPair('RS256');
    const jwk: JWK = { ...(await exportJWK(publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
    const where = { issuer: '' };
    const server = createServer((req, res) => {
      if (req.url === '/.well-known/openid-configuration') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ issuer: where.issuer, jwks_uri: `${where.issuer}/jwks` }));
      } else if (req.url === '/jwks') {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ keys: [jwk] }));
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    where.issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const issuer = new SoakIssuer(server, privateKey, foreign.privateKey);
    issuer.issuer = where.issuer;
    return issuer;
  }

  /** A token valid for `lifetimeS` seconds (negative: expired that long ago). */
  sign(claims: Record<string, unknown>, lifetimeS: number, foreign = false): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const issuedAt = lifetimeS > 0 ? now : now + lifetimeS - 3600;
    return new SignJWT({ iss: this.issuer, aud: AUDIENCE, iat: issuedAt, exp: now + lifetimeS, jti: randomUUID(), ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'at+jwt' })
      .sign(foreign ? this.foreignKey : this.key);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

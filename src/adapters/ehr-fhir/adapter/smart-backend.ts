/**
 * FHIR_AUTH=smart-backend (docs/upstream-fhir.md#settings): SMART Backend Services, the
 * client-credentials grant with a `private_key_jwt` assertion signed by FHIR_CLIENT_KEY_FILE (a
 * PKCS #8 PEM or a JWK; RS384 for RSA, ES384 for EC keys, as SMART asks). A token is kept until 60 s
 * before it expires, or until the FHIR server refuses it (401), and asked for again then; concurrent
 * calls share one request. Neither the token
 * nor the assertion is ever logged or put in an error.
 */
import { createPrivateKey, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { importJWK, importPKCS8, SignJWT, type CryptoKey, type JWK, type KeyObject } from 'jose';
import { request } from 'undici';
import { EhrError } from '../../../domain/ehr-error.js';
import { readCapped } from '../../http-client/read-capped.js';
import type { FhirAuth } from '../../../fhir-settings.js';
import type { Authorization } from './transport-exchange.js';

const EARLY_RENEWAL_MS = 60_000;
const ASSERTION_LIFETIME_S = 300;
const TOKEN_ANSWER_BYTES = 64 * 1024;
const DEFAULT_LIFETIME_S = 300;

export interface SmartBackendOptions {
  tokenUrl: string;
  clientId: string;
  scope: string;
  /** The signing key and its algorithm and key id (from a JWK's `kid`). */
  key: SigningKey;
  timeoutMs: number;
  now: () => number;
}

export interface SigningKey {
  key: CryptoKey | KeyObject | Uint8Array;
  alg: string;
  kid?: string;
}

/** FHIR_CLIENT_KEY_FILE: a JWK (JSON) or a PKCS #8 PEM. */
export async function readSigningKey(file: string): Promise<SigningKey> {
  const text = (await readFile(file, 'utf8')).trim();
  if (text.startsWith('{')) {
    const jwk = JSON.parse(text) as JWK;
    const alg = jwk.alg ?? (jwk.kty === 'EC' ? 'ES384' : 'RS384');
    return { key: await importJWK(jwk, alg), alg, ...(jwk.kid === undefined ? {} : { kid: jwk.kid }) };
  }
  const alg = createPrivateKey(text).asymmetricKeyType === 'ec' ? 'ES384' : 'RS384';
  return { key: await importPKCS8(text, alg), alg };
}

const refused = (status: number): EhrError => (status === 429 || status >= 500
  ? new EhrError('unavailable', `FHIR token endpoint unavailable (status ${status})`, 5)
  // The client or its key is not accepted: the region's credentials need an operator.
  : new EhrError('bad-response', `FHIR token endpoint refused the client credentials (status ${status})`));

export class SmartBackendToken {
  private held: { value: string; renewAt: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(private readonly o: SmartBackendOptions) {}

  /** `Bearer <token>`, from the cache or a new grant. */
  async authorization(): Promise<string> {
    if (this.held !== undefined && this.o.now() < this.held.renewAt) return `Bearer ${this.held.value}`;
    this.pending ??= this.grant().finally(() => {
      this.pending = undefined;
    });
    return `Bearer ${await this.pending}`;
  }

  /** The server refused the token (401): it may have been revoked, so the next call asks for a new one. */
  invalidate(): void {
    this.held = undefined;
  }

  private async assertion(): Promise<string> {
    const now = Math.floor(this.o.now() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: this.o.key.alg, typ: 'JWT', ...(this.o.key.kid === undefined ? {} : { kid: this.o.key.kid }) })
      .setIssuer(this.o.clientId).setSubject(this.o.clientId).setAudience(this.o.tokenUrl)
      .setIssuedAt(now).setExpirationTime(now + ASSERTION_LIFETIME_S).setJti(randomUUID())
      .sign(this.o.key.key);
  }

  private async grant(): Promise<string> {
    const body = new URLSearchParams({
      grant_type: 'client_credentials', scope: this.o.scope,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: await this.assertion(),
    }).toString();
    let answer: Awaited<ReturnType<typeof request>>;
    try {
      answer = await request(this.o.tokenUrl, {
        method: 'POST', body, signal: AbortSignal.timeout(this.o.timeoutMs),
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      });
    } catch {
      throw new EhrError('unavailable', 'FHIR token endpoint did not answer', 5);
    }
    if (answer.statusCode !== 200) {
      await answer.body.dump();
      throw refused(answer.statusCode);
    }
    let json: { access_token?: unknown; token_type?: unknown; expires_in?: unknown };
    try {
      json = JSON.parse(await readCapped(answer.body, TOKEN_ANSWER_BYTES)) as typeof json;
    } catch {
      throw new EhrError('bad-response', 'FHIR token endpoint answered no token');
    }
    if (typeof json.access_token !== 'string' || json.access_token === '' || typeof json.token_type !== 'string'
      || json.token_type.toLowerCase() !== 'bearer') {
      throw new EhrError('bad-response', 'FHIR token endpoint answered no bearer token');
    }
    const lifetimeS = typeof json.expires_in === 'number' && json.expires_in > 0 ? json.expires_in : DEFAULT_LIFETIME_S;
    this.held = { value: json.access_token, renewAt: this.o.now() + lifetimeS * 1000 - EARLY_RENEWAL_MS };
    return json.access_token;
  }
}

/** FHIR_AUTH as the requests carry it: a SMART Backend Services token, or nothing for `none`. */
export async function fhirAuthorization(auth: FhirAuth, timeoutMs: number, now: () => number = Date.now): Promise<Authorization | undefined> {
  if (auth.kind !== 'smart-backend') return undefined;
  const token = new SmartBackendToken({ tokenUrl: auth.tokenUrl, clientId: auth.clientId, scope: auth.scope, key: await readSigningKey(auth.keyFile), timeoutMs, now });
  return { header: () => token.authorization(), refused: () => token.invalidate() };
}

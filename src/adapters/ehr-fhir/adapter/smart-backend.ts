/**
 * FHIR_AUTH=smart-backend (docs/upstream-fhir.md#settings): SMART Backend Services, the
 * client-credentials grant with a `private_key_jwt` assertion signed by FHIR_CLIENT_KEY_FILE (a
 * PKCS #8 PEM or a JWK; RS384 for RSA, ES384 for EC keys, as SMART asks). A token is kept until 60 s
 * before it expires, or until the FHIR server refuses it (401), and asked for again then; concurrent
 * calls share one request. Neither the token
 * nor the assertion is ever logged or put in an error. The token endpoint is reached with the
 * EHR_TLS_* files the EHR is (its CA trusted, the client certificate presented when it asks), since a
 * region's authorization server commonly sits behind the same private CA as its FHIR server; they
 * are read at start-up (a rotated certificate reaches the EHR's connections, the token endpoint's at
 * the next start).
 */
import { createPrivateKey, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { importJWK, importPKCS8, SignJWT, type CryptoKey, type JWK, type KeyObject } from 'jose';
import { EhrError } from '../../../domain/ehr-error.js';
import { readCapped } from '../../http-client/read-capped.js';
import { Agent, request, type Dispatcher } from '../../http-client/undici-parts.js';
import type { FhirAuth } from '../../../fhir-settings.js';
import type { EhrTls } from '../../ehr-http/transport.js';
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
  /** EHR_TLS_*: the CA to trust and the client certificate to present; the system's CAs when absent. */
  tls?: EhrTls;
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
  private readonly dispatcher: Dispatcher | undefined;

  constructor(private readonly o: SmartBackendOptions) {
    const tls = o.tls;
    this.dispatcher = tls === undefined ? undefined : new Agent({ connect: { ...tls } });
  }

  /** Closes the token endpoint's connections. */
  async close(): Promise<void> {
    await this.dispatcher?.close();
  }

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
        method: 'POST', body, signal: AbortSignal.timeout(this.o.timeoutMs), ...(this.dispatcher === undefined ? {} : { dispatcher: this.dispatcher }),
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
export async function fhirAuthorization(auth: FhirAuth, timeoutMs: number, options: { now?: () => number; tls?: EhrTls } = {}): Promise<(Authorization & { close(): Promise<void> }) | undefined> {
  if (auth.kind !== 'smart-backend') return undefined;
  const token = new SmartBackendToken({
    tokenUrl: auth.tokenUrl, clientId: auth.clientId, scope: auth.scope, key: await readSigningKey(auth.keyFile), timeoutMs, now: options.now ?? Date.now,
    ...(options.tls === undefined ? {} : { tls: options.tls }),
  });
  return { header: () => token.authorization(), refused: () => token.invalidate(), close: () => token.close() };
}

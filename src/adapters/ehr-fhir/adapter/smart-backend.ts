/**
 * FHIR_AUTH=smart-backend (docs/upstream-fhir.md#settings): SMART Backend Services, the
 * client-credentials grant with a `private_key_jwt` assertion signed by FHIR_CLIENT_KEY_FILE (a
 * PKCS #8 PEM or a JWK; RS384 for RSA, ES384 for EC keys, as SMART asks) and naming its `kid`, which
 * SMART requires. A token is kept until min(60 s, half its life) before it expires, or until the FHIR
 * server refuses it (401), and asked for again then; concurrent calls share one request. A token
 * answer that could not be sent as a header, or that claims a life past a day, is malformed and never
 * kept: a cached token every request fails to send would fail every EHR call for its whole life.
 * Neither the token nor the assertion is ever logged or put in an error. The token endpoint is reached with the
 * EHR_TLS_* files the EHR is (its CA trusted, the client certificate presented when it asks), since a
 * region's authorization server commonly sits behind the same private CA as its FHIR server; they
 * are read at start-up (a rotated certificate reaches the EHR's connections, the token endpoint's at
 * the next start).
 */
import { createPrivateKey, createPublicKey, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { calculateJwkThumbprint, importJWK, importPKCS8, SignJWT, type CryptoKey, type JWK, type KeyObject } from 'jose';
import { EhrError } from '../../../domain/ehr-error.js';
import { readCapped } from '../../http-client/read-capped.js';
import { Agent, request, type Dispatcher } from '../../http-client/undici-parts.js';
import type { FhirAuth } from '../../../start/fhir-settings.js';
import type { EhrTls } from '../../ehr-http/transport.js';
import type { Authorization } from './transport-exchange.js';

/** A token is renewed this long before it expires at most; a short-lived one halfway through its life. */
const EARLY_RENEWAL_MS = 60_000;
const ASSERTION_LIFETIME_S = 300;
const TOKEN_ANSWER_BYTES = 64 * 1024;
/** The life of a token whose answer names none (OAuth 2.0 leaves `expires_in` optional). */
const DEFAULT_LIFETIME_S = 300;
/** A longer life is not believed: a token the server meant for minutes must not be sent for days. */
const LONGEST_LIFETIME_S = 24 * 60 * 60;
/** Visible ASCII, as a bearer token is (RFC 6750's b64token is a part of it): nothing a header could not carry, no CR or LF. */
const HEADER_SAFE_TOKEN = /^[\x21-\x7e]+$/;

export interface SmartBackendOptions {
  tokenUrl: string;
  clientId: string;
  scope: string;
  /** The signing key, its algorithm and its key id. */
  key: SigningKey;
  timeoutMs: number;
  now: () => number;
  /** EHR_TLS_*: the CA to trust and the client certificate to present; the system's CAs when absent. */
  tls?: EhrTls;
}

export interface SigningKey {
  key: CryptoKey | KeyObject | Uint8Array;
  alg: string;
  /** The `kid` of the assertion's header, by which the token endpoint finds the public key it registered. */
  kid: string;
}

/**
 * FHIR_CLIENT_KEY_FILE: a JWK (JSON) or a PKCS #8 PEM. Its kid is a JWK's own `kid`; a PEM (or a JWK
 * without one) has none, so it is the key's JWK thumbprint (RFC 7638, SHA-256, base64url), the common
 * convention: the region registers the public key under that kid (docs/upstream-fhir.md#settings).
 */
export async function readSigningKey(file: string): Promise<SigningKey> {
  const text = (await readFile(file, 'utf8')).trim();
  if (text.startsWith('{')) {
    const jwk = JSON.parse(text) as JWK;
    const alg = jwk.alg ?? (jwk.kty === 'EC' ? 'ES384' : 'RS384');
    return { key: await importJWK(jwk, alg), alg, kid: jwk.kid ?? await calculateJwkThumbprint(jwk, 'sha256') };
  }
  const privateKey = createPrivateKey(text);
  const alg = privateKey.asymmetricKeyType === 'ec' ? 'ES384' : 'RS384';
  const kid = await calculateJwkThumbprint(createPublicKey(privateKey).export({ format: 'jwk' }) as JWK, 'sha256');
  return { key: await importPKCS8(text, alg), alg, kid };
}

/** Seconds a token lives: `expires_in` as a number (or digits), at most a day; absent, DEFAULT_LIFETIME_S. Undefined: malformed. */
function lifetimeOf(expiresIn: unknown): number | undefined {
  if (expiresIn === undefined) return DEFAULT_LIFETIME_S;
  const seconds = typeof expiresIn === 'string' && /^\d{1,9}$/.test(expiresIn) ? Number(expiresIn) : expiresIn;
  return typeof seconds === 'number' && seconds > 0 && seconds <= LONGEST_LIFETIME_S ? seconds : undefined;
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
      .setProtectedHeader({ alg: this.o.key.alg, typ: 'JWT', kid: this.o.key.kid })
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
    // Refused here, before it is kept: a token that cannot be sent would fail every EHR call, and count
    // against the EHR's breaker, for as long as it is kept. Its text is never told.
    if (!HEADER_SAFE_TOKEN.test(json.access_token)) throw new EhrError('bad-response', 'FHIR token endpoint answered a token that is no valid header value');
    const lifetimeS = lifetimeOf(json.expires_in);
    if (lifetimeS === undefined) throw new EhrError('bad-response', 'FHIR token endpoint answered an expires_in that is not 1 s to 24 h');
    const lifetimeMs = lifetimeS * 1000;
    this.held = { value: json.access_token, renewAt: this.o.now() + lifetimeMs - Math.min(EARLY_RENEWAL_MS, lifetimeMs / 2) };
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

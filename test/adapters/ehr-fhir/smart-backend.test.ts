/**
 * FHIR_AUTH=smart-backend against a small token endpoint on loopback: the client-credentials grant
 * with a private_key_jwt assertion the endpoint verifies (its header naming the key's kid), the token
 * sent to the FHIR server as a bearer token, kept until min(60 s, half its life) before it expires,
 * and never told in an event or an error. A token answer that could not be sent as a header, or that
 * claims to live past a day, is refused and never kept (docs/upstream-fhir.md#settings).
 */
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair, jwtVerify, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSigningKey, SmartBackendToken } from '../../../src/adapters/ehr-fhir/adapter/smart-backend.js';
import { startFhirTestApp } from '../../support/fhir-test-app.js';
import { TestPki } from '../../support/test-pki.js';
import { TOLVAN } from './support/demo-bundle.js';
import type { FhirProxy } from './support/fhir-proxy.js';
import { opensslMissing } from '../../support/requirements.js';

interface Grant { form: URLSearchParams; claims: Record<string, unknown>; header: Record<string, unknown> }

let server: Server;
let tokenUrl: string;
let dir: string;
let publicKey: CryptoKey;
let pemFile: string;
let jwkFile: string;
/** The RSA key's RFC 7638 thumbprint, computed here from its public half. */
let rsaThumbprint: string;
/** The same RSA key as a JWK without a kid. */
let rsaJwkFile: string;
const grants: Grant[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: {} };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pdas-smart-'));
  const pair = await generateKeyPair('RS384', { extractable: true });
  publicKey = pair.publicKey;
  pemFile = path.join(dir, 'client-key.pem');
  await writeFile(pemFile, await exportPKCS8(pair.privateKey));
  rsaThumbprint = await calculateJwkThumbprint(await exportJWK(pair.publicKey), 'sha256');
  rsaJwkFile = path.join(dir, 'client-key-without-kid.jwk.json');
  await writeFile(rsaJwkFile, JSON.stringify(await exportJWK(pair.privateKey)));
  const ec = await generateKeyPair('ES384', { extractable: true });
  jwkFile = path.join(dir, 'client-key.jwk.json');
  await writeFile(jwkFile, JSON.stringify({ ...(await exportJWK(ec.privateKey)), kid: 'ec-1' }));
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      void (async () => {
        const form = new URLSearchParams(body);
        try {
          const { payload, protectedHeader } = await jwtVerify(form.get('client_assertion') ?? '', publicKey, { audience: tokenUrl, issuer: 'pdas', subject: 'pdas' });
          grants.push({ form, claims: payload, header: protectedHeader as Record<string, unknown> });
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
        } catch {
          res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}');
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  tokenUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('FHIR_AUTH=smart-backend', () => {
  it('asks for a token with a signed assertion, sends it as a bearer token, keeps it until 60 s before expiry, and never tells it', async () => {
    grants.length = 0;
    answer = { status: 200, body: { access_token: 'token-one-SECRET', token_type: 'Bearer', expires_in: 300 } };
    let now = Date.now();
    const token = new SmartBackendToken({
      tokenUrl, clientId: 'pdas', scope: 'system/Patient.read system/Appointment.write', key: await readSigningKey(pemFile), timeoutMs: 2000, now: () => now,
    });
    const t = await startFhirTestApp({ now, proxied: true, adapter: { authorization: { header: () => token.authorization(), refused: () => token.invalidate() } } });
    try {
      expect(await t.ehr.reads.getJournalNotes?.(TOLVAN, {})).toBeDefined();
      expect(await t.ehr.reads.getPatient?.(TOLVAN, {})).toBeDefined();
      expect(grants).toHaveLength(1);
      const [grant] = grants;
      expect(Object.fromEntries(grant?.form ?? [])).toMatchObject({
        grant_type: 'client_credentials', scope: 'system/Patient.read system/Appointment.write',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      });
      expect(grant?.header.alg).toBe('RS384');
      expect(grant?.claims).toMatchObject({ iss: 'pdas', sub: 'pdas', aud: tokenUrl });
      expect(typeof grant?.claims.jti).toBe('string');
      const seen = (t.proxy as FhirProxy).seen;
      expect(seen.length).toBeGreaterThan(2);
      expect(seen.every((s) => s.headers.authorization === 'Bearer token-one-SECRET')).toBe(true);

      now += 239_000;
      await token.authorization();
      expect(grants).toHaveLength(1);
      now += 1000;
      answer = { status: 200, body: { access_token: 'token-two-SECRET', token_type: 'bearer', expires_in: 300 } };
      expect(await token.authorization()).toBe('Bearer token-two-SECRET');
      expect(grants).toHaveLength(2);
      expect(JSON.stringify(t.events) + t.logLines.join('')).not.toMatch(/SECRET/);

      // A token the server refuses (revoked) is not sent again: the next call asks for a new one.
      const proxy = t.proxy as FhirProxy;
      proxy.hook = async () => ({ status: 401, headers: { 'content-type': 'application/fhir+json' }, body: Buffer.from('{"resourceType":"OperationOutcome","issue":[]}') });
      await expect(t.ehr.reads.getPatient?.(TOLVAN, {})).rejects.toMatchObject({ failure: 'bad-response' });
      proxy.hook = undefined;
      answer = { status: 200, body: { access_token: 'token-four-SECRET', token_type: 'bearer', expires_in: 300 } };
      await t.ehr.reads.getPatient?.(TOLVAN, {});
      expect(grants).toHaveLength(3);
      expect(proxy.seen.at(-1)?.headers.authorization).toBe('Bearer token-four-SECRET');
    } finally {
      await t.close();
    }
  });

  it('shares one grant among concurrent calls, and signs with an EC JWK as ES384 with its kid', async () => {
    grants.length = 0;
    answer = { status: 200, body: { access_token: 'token-three-SECRET', token_type: 'Bearer', expires_in: 300 } };
    const key = await readSigningKey(jwkFile);
    expect([key.alg, key.kid]).toEqual(['ES384', 'ec-1']);
    const token = new SmartBackendToken({ tokenUrl, clientId: 'pdas', scope: 's', key: await readSigningKey(pemFile), timeoutMs: 2000, now: Date.now });
    await Promise.all(Array.from({ length: 5 }, () => token.authorization()));
    expect(grants).toHaveLength(1);
  });

  it('answers a refused client as bad-response and an unavailable endpoint as unavailable, without the endpoint\'s words', async () => {
    const refusedBy = async (status: number, body: unknown) => {
      answer = { status, body };
      const token = new SmartBackendToken({ tokenUrl, clientId: 'pdas', scope: 's', key: await readSigningKey(pemFile), timeoutMs: 2000, now: Date.now });
      return token.authorization().then(() => undefined, (err: unknown) => err as { failure: string; message: string });
    };
    expect(await refusedBy(400, { error: 'invalid_scope', error_description: 'SECRET detail' })).toMatchObject({ failure: 'bad-response' });
    expect(await refusedBy(503, {})).toMatchObject({ failure: 'unavailable' });
    expect(await refusedBy(200, { token_type: 'bearer' })).toMatchObject({ failure: 'bad-response' });
    const wrongKey = new SmartBackendToken({ tokenUrl, clientId: 'pdas', scope: 's', key: await readSigningKey(jwkFile), timeoutMs: 2000, now: Date.now });
    const err = await wrongKey.authorization().catch((e: unknown) => e as Error);
    expect(err).toMatchObject({ failure: 'bad-response' });
    expect((err as Error).message).not.toMatch(/SECRET|invalid_client/);
  });

  it.skipIf(opensslMissing())('reaches a token endpoint behind the EHR\'s private CA with the EHR_TLS_* files, presenting the client certificate it asks for', async () => {
    const pki = new TestPki(dir, 'token-ca');
    const serverCert = pki.server('token-endpoint');
    const clientCert = pki.client('pdas-client');
    const clientsSeen: string[] = [];
    const tls = createHttpsServer({ cert: serverCert.cert, key: serverCert.key, ca: pki.ca, requestCert: true, rejectUnauthorized: true }, (req, res) => {
      clientsSeen.push((req.socket as TLSSocket).getPeerCertificate().subject.CN as string);
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'tls-token-SECRET', token_type: 'Bearer', expires_in: 300 })));
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/token`;
    const options = { tokenUrl: url, clientId: 'pdas', scope: 's', key: await readSigningKey(pemFile), timeoutMs: 2000, now: Date.now };
    const withTls = new SmartBackendToken({ ...options, tls: { ca: pki.ca, cert: clientCert.cert, key: clientCert.key } });
    const without = new SmartBackendToken(options);
    try {
      expect(await withTls.authorization()).toBe('Bearer tls-token-SECRET');
      expect(clientsSeen).toEqual(['pdas-client']);
      // Without the files the private CA is not trusted: the endpoint is unavailable, as before.
      await expect(without.authorization()).rejects.toMatchObject({ failure: 'unavailable' });
    } finally {
      await withTls.close();
      await without.close();
      await new Promise((resolve) => tls.close(resolve));
    }
  });
});

describe('FHIR_AUTH=smart-backend: what a token answer may be, and how long it is kept (issue 34 item 9)', () => {
  const tokenAt = async (now: () => number): Promise<SmartBackendToken> =>
    new SmartBackendToken({ tokenUrl, clientId: 'pdas', scope: 's', key: await readSigningKey(pemFile), timeoutMs: 2000, now });

  it('keeps a token until min(60 s, half its life) before it expires: a 30 s token is used for 15 s', async () => {
    for (const [lifetimeS, keptMs] of [[30, 15_000], [60, 30_000], [120, 60_000], [300, 240_000]] as const) {
      grants.length = 0;
      answer = { status: 200, body: { access_token: `token-${lifetimeS}-SECRET`, token_type: 'Bearer', expires_in: lifetimeS } };
      let now = Date.now();
      const token = await tokenAt(() => now);
      await token.authorization();
      await token.authorization();
      now += keptMs - 1;
      await token.authorization();
      expect([lifetimeS, grants.length], 'one grant while the token is kept').toEqual([lifetimeS, 1]);
      now += 1;
      await token.authorization();
      expect([lifetimeS, grants.length], 'a new grant once it is not').toEqual([lifetimeS, 2]);
    }
  });

  it('refuses an expires_in past 24 h, or not a positive number of seconds, as a malformed answer, and keeps nothing of it', async () => {
    let now = Date.now();
    const token = await tokenAt(() => now);
    for (const expiresIn of [86_401, 10 ** 9, 0, -30, 'soon', true]) {
      grants.length = 0;
      answer = { status: 200, body: { access_token: 'token-long-SECRET', token_type: 'Bearer', expires_in: expiresIn } };
      const err = await token.authorization().then(() => undefined, (e: unknown) => e as { failure?: string; message: string });
      expect([expiresIn, err?.failure], 'refused').toEqual([expiresIn, 'bad-response']);
      expect(err?.message).not.toMatch(/SECRET/);
      answer = { status: 200, body: { access_token: 'token-day-SECRET', token_type: 'Bearer', expires_in: 86_400 } };
      expect(await token.authorization(), 'nothing of the refused answer was kept: asked again').toBe('Bearer token-day-SECRET');
      expect(grants).toHaveLength(2);
      token.invalidate();
      now += 1000;
    }
  });

  it('refuses an access_token that is no valid header value (CR, LF, a control character): never kept or sent, and the breaker stays closed', async () => {
    grants.length = 0;
    const now = Date.now();
    const token = await tokenAt(() => now);
    // One failure counted would open the breaker for everyone for a minute.
    const t = await startFhirTestApp({
      now, proxied: true,
      adapter: { breaker: { failureThreshold: 1, openMs: 60_000 }, authorization: { header: () => token.authorization(), refused: () => token.invalidate() } },
    });
    try {
      const proxy = t.proxy as FhirProxy;
      for (const bad of ['abc\r\nX-Injected: yes', 'abc\ndef-SECRET', 'abc\rdef', 'abc\u0000def', 'abc\u007fdef', 'abc\tdef']) {
        answer = { status: 200, body: { access_token: bad, token_type: 'Bearer', expires_in: 3600 } };
        await expect(t.ehr.reads.getPatient?.(TOLVAN, {}), JSON.stringify(bad)).rejects.toMatchObject({ failure: 'bad-response' });
      }
      expect(grants, 'each read asked anew: no refused token was kept').toHaveLength(6);
      expect(proxy.seen, 'nothing was sent with a refused token').toEqual([]);
      expect(t.events.filter((e) => e.type === 'breaker-open')).toEqual([]);
      answer = { status: 200, body: { access_token: 'token-good-SECRET', token_type: 'Bearer', expires_in: 3600 } };
      expect(await t.ehr.reads.getPatient?.(TOLVAN, {})).toBeDefined();
      expect(proxy.seen.length).toBeGreaterThan(0);
      expect(proxy.seen.every((s) => s.headers.authorization === 'Bearer token-good-SECRET')).toBe(true);
      expect(JSON.stringify(t.events) + t.logLines.join('')).not.toMatch(/SECRET|X-Injected/);
    } finally {
      await t.close();
    }
  });

  it('names the key in the assertion: a PEM key by its RFC 7638 thumbprint, a JWK by its kid (else its thumbprint)', async () => {
    grants.length = 0;
    answer = { status: 200, body: { access_token: 'token-kid-SECRET', token_type: 'Bearer', expires_in: 300 } };
    await (await tokenAt(Date.now)).authorization();
    expect(grants.map((g) => g.header.kid)).toEqual([rsaThumbprint]);
    expect((await readSigningKey(pemFile)).kid).toBe(rsaThumbprint);
    expect((await readSigningKey(rsaJwkFile)).kid).toBe(rsaThumbprint);
    expect((await readSigningKey(jwkFile)).kid).toBe('ec-1');
  });
});

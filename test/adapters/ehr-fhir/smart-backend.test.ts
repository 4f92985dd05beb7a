/**
 * FHIR_AUTH=smart-backend against a small token endpoint on loopback: the client-credentials grant
 * with a private_key_jwt assertion the endpoint verifies, the token sent to the FHIR server as a
 * bearer token, kept until 60 s before it expires, and never told in an event or an error.
 */
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportJWK, exportPKCS8, generateKeyPair, jwtVerify, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSigningKey, SmartBackendToken } from '../../../src/adapters/ehr-fhir/adapter/smart-backend.js';
import { startFhirTestApp } from '../../support/fhir-test-app.js';
import { TestPki } from '../../support/test-pki.js';
import { TOLVAN } from './support/demo-bundle.js';
import type { FhirProxy } from './support/fhir-proxy.js';

interface Grant { form: URLSearchParams; claims: Record<string, unknown>; header: Record<string, unknown> }

let server: Server;
let tokenUrl: string;
let dir: string;
let publicKey: CryptoKey;
let pemFile: string;
let jwkFile: string;
const grants: Grant[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: {} };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pdas-smart-'));
  const pair = await generateKeyPair('RS384', { extractable: true });
  publicKey = pair.publicKey;
  pemFile = path.join(dir, 'client-key.pem');
  await writeFile(pemFile, await exportPKCS8(pair.privateKey));
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

  it('reaches a token endpoint behind the EHR\'s private CA with the EHR_TLS_* files, presenting the client certificate it asks for', async () => {
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

/**
 * The kit to a FHIR server behind mutual TLS, as a region's usually is: an https front (a throw-away
 * CA, a server certificate for 127.0.0.1, client certificates required) before the development
 * server. With EHR_TLS_*'s CA and client certificate the kit passes; without the client
 * certificate the server's refusal is a failed row, not a pass.
 */
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:https';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchExchange } from '../../src/conformance/fetch-exchange.js';
import { fhirConformance } from '../../src/conformance/fhir-conformance.js';
import { failed, formatTable } from '../../src/conformance/report.js';
import { DEMO_FHIR_SETTINGS } from '../../src/dev/demo-data/fhir/bundle.js';
import { demoBothFormsForTests } from '../support/demo-both-forms.js';
import { TestPki } from '../support/test-pki.js';
import { opensslMissing } from '../support/requirements.js';

const demo = demoBothFormsForTests(Date.parse('2026-11-21T08:00:00Z'), 'Europe/Stockholm');
let dir: string;
let pki: TestPki;
let front: Server;
let base: string;

const noOpenssl = opensslMissing();

beforeAll(async () => {
  if (noOpenssl) return;
  dir = await mkdtemp(path.join(tmpdir(), 'kit-mtls-'));
  pki = new TestPki(dir);
  const server = pki.server('fhir-front');
  const target = new URL(demo.sim.baseUrl);
  front = createServer({ cert: server.cert, key: server.key, ca: pki.ca, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const upstream = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(front.address() as AddressInfo).port}${target.pathname}`;
});
afterAll(async () => {
  if (noOpenssl) return;
  front.closeAllConnections();
  await new Promise((resolve) => front.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const kit = (tls: Parameters<typeof fetchExchange>[1]) => fhirConformance({
  baseUrl: base, patient: '191212121212', sandboxWrites: false, exchange: fetchExchange(5000, tls), zone: 'Europe/Stockholm',
  idRoot: DEMO_FHIR_SETTINGS.idRoot, videoActionIdSystem: DEMO_FHIR_SETTINGS.videoActionIdSystem, delegationTag: DEMO_FHIR_SETTINGS.delegationTag,
  pageSize: 100, maxPages: 20, callTimeoutMs: 10_000, range: { from: '19000101000000', to: '21001231235959' }, now: Date.now,
});

describe.skipIf(noOpenssl)('the conformance kit over mutual TLS', () => {
  it('passes with the CA and the client certificate of EHR_TLS_*', async () => {
    const client = pki.client('kit');
    const rows = await kit({ ca: pki.ca, cert: client.cert, key: client.key });
    expect(failed(rows), formatTable(rows)).toBe(false);
  });

  it('fails, without passing anything, when it has no client certificate to show', async () => {
    const rows = await kit({ ca: pki.ca });
    expect(rows.find((r) => r.check === 'capability statement')).toMatchObject({ result: 'FAIL' });
    expect(rows.filter((r) => r.result === 'PASS')).toEqual([]);
  });
});

/**
 * A JSON body is UTF-8 (RFC 8259 §8.1), and is read as nothing else. Hostile review (helper-71): a body
 * sent as `charset=utf-16` or `charset=latin1` was read as UTF-8 all the same, so a reader that honours
 * the charset saw another request, and bytes that are no UTF-8 were replaced by U+FFFD and stored
 * (a grant's purpose shown to the grantee as "ab���"), on both doors. Now a charset other than utf-8 is
 * 415 and bytes that are not UTF-8 are 400, saying what to send, and nothing is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PROXY_SETTINGS } from '../support/proxy-wiring.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { NOW, outcomeOf, pid, smartToken, TOLVAN } from './fhir/fhir-calls.js';

const GOSTA = '194608632396';
const ANTON = '200404122384';
const PERSONNUMMER = 'http://electronichealth.se/identifier/personnummer';

describe('a JSON body is UTF-8', () => {
  let t: TestApp;
  let fhirToken: string;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW, proxies: DEFAULT_PROXY_SETTINGS });
    fhirToken = await smartToken(t, TOLVAN, 'patient/Consent.cud patient/Consent.rs');
  }, 60_000);
  afterAll(async () => t.close());

  const grant = async (payload: string | Buffer, contentType: string) =>
    t.call({ method: 'POST', url: '/patients/proxies/', token: await t.personToken(TOLVAN), payload, headers: { 'content-type': contentType } });
  const grants = async (): Promise<unknown[]> => (await t.call({ method: 'GET', url: '/patients/proxies/', token: await t.personToken(TOLVAN) })).json<{ grants: unknown[] }>().grants;
  const consent = (purposeFree: Record<string, unknown> = {}) => JSON.stringify({
    resourceType: 'Consent', patient: { reference: `Patient/${pid(TOLVAN)}` }, ...purposeFree,
    provision: {
      type: 'permit', class: [{ system: 'http://hl7.org/fhir/resource-types', code: 'Appointment' }],
      actor: [{ reference: { identifier: { system: PERSONNUMMER, value: ANTON } } }],
    },
  });

  it('COS: a charset other than utf-8 is 415, in any case or quoting utf-8 is taken', async () => {
    const before = await grants();
    const body = JSON.stringify({ grantee: GOSTA, categories: ['LabResult'] });
    // RFC 2231's extended spellings (`charset*=`, `charset*0=`) were passed over as no charset at all: a
    // body its sender encoded otherwise was read as UTF-8 (the last sessions' note).
    for (const type of ['application/json; charset=utf-16', 'application/json; charset=latin1', 'application/json;charset=iso-8859-1', 'application/json; charset=utf-8; charset=utf-16',
      "application/json; charset*=iso-8859-1''", "application/json; charset*=utf-8''", 'application/json; charset*0=utf-16', "application/json; CHARSET*0*=latin1''"]) {
      const res = await grant(body, type);
      expect([type, res.statusCode, res.json()]).toEqual([type, 415, { statusCode: 415, message: 'A JSON body is UTF-8: send charset=utf-8, or no charset at all.' }]);
    }
    expect(await grants()).toEqual(before);
    expect((await grant(body, 'application/json; charset="UTF-8"')).statusCode).toBe(201);
  });

  it('COS: bytes that are not UTF-8 are 400, never replaced and stored', async () => {
    const before = await grants();
    const body = Buffer.concat([Buffer.from(`{"grantee":"${ANTON}","categories":["LabResult"],"purpose":"ab`), Buffer.from([0xff, 0xc1, 0xa5]), Buffer.from('"}')]);
    const res = await grant(body, 'application/json');
    expect([res.statusCode, res.json()]).toEqual([400, { statusCode: 400, message: 'The body is not UTF-8: send JSON encoded as UTF-8.' }]);
    expect(await grants()).toEqual(before);
  });

  // Hostile reviews helper-126 and helper-127: a gzipped body was refused as "not UTF-8" or "not valid JSON",
  // which sends its sender looking for the wrong fault. RFC 7694 §3: 415, naming the codings taken.
  it('a compressed body is 415 on both doors, saying to send it uncompressed, and nothing is stored', async () => {
    const before = await grants();
    const { gzipSync } = await import('node:zlib');
    const body = gzipSync(JSON.stringify({ grantee: GOSTA, categories: ['LabResult'] }));
    for (const encoding of ['gzip', 'deflate', 'br', 'GZIP', 'gzip, identity']) {
      const res = await t.call({ method: 'POST', url: '/patients/proxies/', token: await t.personToken(TOLVAN), payload: body, headers: { 'content-type': 'application/json', 'content-encoding': encoding } });
      expect([encoding, res.statusCode, res.headers['accept-encoding'], res.json()]).toEqual([encoding, 415, 'identity',
        { statusCode: 415, message: 'The body is compressed (Content-Encoding), which this API does not take: send it uncompressed.' }]);
    }
    expect(await grants()).toEqual(before);
    const fhir = await t.call({ method: 'POST', url: '/fhir/Consent', key: null, token: fhirToken, payload: gzipSync(consent()), headers: { 'content-type': 'application/fhir+json', 'content-encoding': 'gzip' } });
    expect(outcomeOf(fhir, 415).diagnostics).toBe('The body is compressed (Content-Encoding), which this API does not take: send it uncompressed.');
    expect(await grants()).toEqual(before);
    const plain = JSON.stringify({ grantee: '198112189876', categories: ['LabResult'] });
    const identity = await t.call({ method: 'POST', url: '/patients/proxies/', token: await t.personToken(TOLVAN), payload: plain, headers: { 'content-type': 'application/json', 'content-encoding': 'identity' } });
    expect(identity.statusCode).toBe(201);
  });

  it('FHIR: the same, as OperationOutcomes, and nothing is stored', async () => {
    const before = await grants();
    const post = (payload: string | Buffer, contentType: string) =>
      t.call({ method: 'POST', url: '/fhir/Consent', key: null, token: fhirToken, payload, headers: { 'content-type': contentType } });
    expect(outcomeOf(await post(consent(), 'application/fhir+json; charset=utf-16'), 415).diagnostics).toBe('A JSON body is UTF-8: send charset=utf-8, or no charset at all.');
    expect(outcomeOf(await post(consent(), 'application/json; charset=latin1'), 415).diagnostics).toBe('A JSON body is UTF-8: send charset=utf-8, or no charset at all.');
    const text = consent({ language: 'sv\u00ff' });
    const bad = Buffer.from(text, 'latin1');
    expect(outcomeOf(await post(bad, 'application/fhir+json'), 400).diagnostics).toBe('The body is not UTF-8: send JSON encoded as UTF-8.');
    expect(await grants()).toEqual(before);
    expect((await post(consent(), 'application/fhir+json; charset=utf-8')).statusCode).toBe(201);
  });
});

import { readDocument } from '../../support/document-reads.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { XmlHttpEhr } from '../../../src/adapters/ehr-xml-http/index.js';
import { AT_ANY_TIME } from '../../../src/domain/writes/arrival-window.js';

const ZONE = 'Europe/Stockholm';
const ADULT = '191212121212';

interface Seen { method: string; url: string; headers: IncomingMessage['headers']; body: string; socket: Socket }

const EMPTY = '<ContactEHRExtracts xmlns="urn:example:ehr:carecontact:2"/>';
const RESULT = '<ResultRecord xmlns="urn:example:ehr:result:1"><ResultCode>OK</ResultCode><Comment>Klart.</Comment>'
  + '<Any><ReasonCode>ARRIVAL_REGISTERED</ReasonCode></Any></ResultRecord>';

/** A loopback server that records what the adapter sends and answers what the test says. */
describe('XmlHttpEhr requests on the wire', () => {
  let server: Server;
  let base = '';
  const seen: Seen[] = [];
  let answer: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
  const adapters: XmlHttpEhr[] = [];
  const adapter = (path = '', extra: Partial<ConstructorParameters<typeof XmlHttpEhr>[0]> = {}): XmlHttpEhr => {
    const ehr = new XmlHttpEhr({ baseUrl: `${base}${path}`, timeoutMs: 1000, zone: ZONE, onDropped: () => undefined, ...extra });
    adapters.push(ehr);
    return ehr;
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString(), socket: req.socket });
        answer(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    seen.length = 0;
  });
  afterAll(async () => {
    await Promise.all(adapters.map((a) => a.close()));
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const xml = (body: string, headers: Record<string, string> = {}) => (_req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8', ...headers });
    res.end(body);
  };

  it('asks for XML on the documented paths, with from/to only where they filter', async () => {
    answer = xml(EMPTY);
    const ehr = adapter();
    await readDocument(ehr, 'contacts', ADULT, { from: '20260101000000', to: '20261231235959' });
    await readDocument(ehr, 'contacts', ADULT, { to: '20261231235959' });
    answer = xml(`<PatientRecords xmlns="urn:example:ehr:patient:3"/>`);
    await readDocument(ehr, 'patient', ADULT, { from: '20260101000000' });
    answer = xml(`<PatientEHRExtracts xmlns="urn:example:ehr:patient-v2:1"/>`);
    await expect(readDocument(ehr, 'patient-v2', ADULT, { from: '20260101000000' })).resolves.toEqual([]);
    answer = xml(`<Relationships xmlns="urn:example:ehr:relationship:1" actor="${ADULT}"/>`);
    await ehr.relationshipsOf(ADULT);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      `GET /ehr/v1/patients/${ADULT}/contacts?from=20260101000000&to=20261231235959`,
      `GET /ehr/v1/patients/${ADULT}/contacts?to=20261231235959`,
      `GET /ehr/v1/patients/${ADULT}/patient`,
      `GET /ehr/v1/patients/${ADULT}/patient-v2`,
      `GET /ehr/v1/relationships/${ADULT}`,
    ]);
    for (const s of seen) expect(s.headers.accept).toBe('application/xml');
  });

  it('keeps a base path prefix and sends writes exactly as docs/upstream-ehr.md#2-requests-and-answers says', async () => {
    answer = xml(RESULT);
    const ehr = adapter('/legacy/ehr-gw/');
    await expect(ehr.registerArrival(ADULT, '00261121101', AT_ANY_TIME)).resolves.toEqual({ resultCode: 'OK', reasonCode: 'ARRIVAL_REGISTERED' });
    await ehr.registerPayment(ADULT, 'Bk-1.2_x', 'CASH');
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      `PUT /legacy/ehr-gw/ehr/v1/patients/${ADULT}/bookings/00261121101/arrival`,
      `POST /legacy/ehr-gw/ehr/v1/patients/${ADULT}/bookings/Bk-1.2_x/payment`,
    ]);
    expect(seen[0]?.body).toBe('');
    expect(seen[1]?.body).toBe(
      '<Payment xmlns="urn:example:ehr:payment:1"><Status>PAID</Status><PaymentType>CASH</PaymentType></Payment>');
    expect(seen[1]?.headers['content-type']).toBe('application/xml; charset=utf-8');
  });

  it('maps every write outcome by its reason code, and refuses a ResultRecord without a valid ResultCode', async () => {
    const ehr = adapter();
    for (const [code, reason] of [['INFO', 'ALREADY_PAID'], ['ERROR', 'NOT_PAYABLE'], ['ERROR', 'CONTACT_CANCELLED']]) {
      answer = xml(`<r:ResultRecord xmlns:r="urn:example:ehr:result:1"><r:ResultCode>${code}</r:ResultCode><r:Any><r:ReasonCode>${reason}</r:ReasonCode></r:Any></r:ResultRecord>`);
      await expect(ehr.registerPayment(ADULT, 'c1', 'CARD')).resolves.toEqual({ resultCode: code, reasonCode: reason });
    }
    answer = xml('<ResultRecord xmlns="urn:example:ehr:result:1"><ResultCode>MAYBE</ResultCode></ResultRecord>');
    await expect(ehr.registerArrival(ADULT, 'c1', AT_ANY_TIME)).rejects.toMatchObject({ failure: 'bad-response' });
    await expect(ehr.registerPayment(ADULT, 'c1', 'BITCOIN' as 'CARD')).rejects.toBeInstanceOf(RangeError);
  });

  it('refuses encoded bodies, other 2xx statuses and a redirect without Location, never reading them as documents', async () => {
    const ehr = adapter();
    answer = xml(EMPTY, { 'content-encoding': 'gzip' });
    await expect(readDocument(ehr, 'contacts', ADULT, {})).rejects.toMatchObject({ failure: 'bad-response', message: 'EHR answer has a content encoding' });
    answer = (_req, res) => { res.writeHead(204); res.end(); };
    await expect(readDocument(ehr, 'contacts', ADULT, {})).rejects.toMatchObject({ failure: 'bad-response' });
    answer = (_req, res) => { res.writeHead(301, { 'content-type': 'application/xml' }); res.end(EMPTY); };
    await expect(readDocument(ehr, 'contacts', ADULT, {})).rejects.toMatchObject({ failure: 'bad-response' });
    answer = xml(`<Relationships xmlns="urn:example:ehr:relationship:1" actor="198112189876"/>`);
    await expect(ehr.relationshipsOf(ADULT)).rejects.toMatchObject({ failure: 'bad-response' });
  });

  it('reuses kept-alive connections and never opens more than `connections` at once', async () => {
    const ehr = adapter('', { connections: 2 });
    answer = xml(EMPTY);
    for (let i = 0; i < 10; i++) await readDocument(ehr, 'contacts', ADULT, {});
    // Without keep-alive each call would bring its own connection.
    expect(new Set(seen.map((s) => s.socket)).size).toBeLessThanOrEqual(2);
    seen.length = 0;
    let open = 0;
    let most = 0;
    answer = (req, res) => {
      open += 1;
      most = Math.max(most, open);
      setTimeout(() => {
        open -= 1;
        xml(EMPTY)(req, res);
      }, 30);
    };
    await Promise.all(Array.from({ length: 8 }, () => readDocument(ehr, 'contacts', ADULT, {})));
    expect(seen).toHaveLength(8);
    expect(most).toBe(2);
    expect(new Set(seen.map((s) => s.socket)).size).toBeLessThanOrEqual(2);
  });

  it('refuses a base URL with credentials, a query or another scheme, and a deadline that is no deadline', () => {
    const make = (baseUrl: string, timeoutMs = 1000) => () => new XmlHttpEhr({ baseUrl, timeoutMs, zone: ZONE, onDropped: () => undefined });
    expect(make('http://user:pw@127.0.0.1:1')).toThrow(RangeError);
    expect(make('http://127.0.0.1:1/?a=1')).toThrow(RangeError);
    expect(make('file:///etc/passwd')).toThrow(RangeError);
    expect(make('http://127.0.0.1:1', 0)).toThrow(RangeError);
  });
});

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../src/start/container.js';
import { createLogger } from '../../src/http/logging.js';
import { startDemoService } from '../support/demo-service.js';

const ADULT = '191212121212';
const SCOPES = 'user/Appointment-read user/Patient-read user/JournalNote-read user/Appointment-write user/Payment-write';

/**
 * The service as `npm start` runs it: the real demo authorization server and the real API, both
 * listening on loopback, a token fetched over HTTP by client credentials, reads and writes over HTTP.
 */
describe('end to end on loopback', () => {
  let dataDir: string;
  let runtime: Runtime;
  let api: string;
  let key: string;
  let token: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdas-e2e-'));
    const service = await startDemoService({ DATA_DIR: dataDir, LOG_LEVEL: 'info' }, createLogger('info', { write: (l: string) => void logLines.push(l) }));
    ({ runtime, api, key } = service);
    token = await service.clientToken(SCOPES);
  });

  afterAll(async () => {
    await runtime?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const call = (url: string, init: RequestInit = {}) => fetch(`${api}${url}`, {
    ...init,
    headers: { 'ocp-apim-subscription-key': key, authorization: `Bearer ${token}`, patient: ADULT, ...(init.headers as Record<string, string>) },
  });

  it('reads with a token the demo issuer minted, validated through OIDC discovery', async () => {
    const res = await call('/patients/journalnotes');
    expect(res.status).toBe(200);
    const notes = (await res.json()) as Array<{ JournalNoteEHRExtract: unknown[] }>;
    expect(notes[0]?.JournalNoteEHRExtract.length).toBeGreaterThan(0);
    const v2 = (await (await call('/patients/patient/?api-version=v2')).json()) as Array<{ patientEHRExtract: Array<{ patient?: { patientID?: { extension?: string } } }> }>;
    expect(v2[0]?.patientEHRExtract[0]?.patient?.patientID?.extension).toBe(ADULT);
  });

  it('refuses a scope the token does not carry', async () => {
    const res = await call('/patients/videomeetings/');
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('insufficient_scope');
  });

  it('checks a patient in to today\'s appointment and registers the payment', async () => {
    const results = (await (await call('/patients/appointments/')).json()) as Array<{ Booking: Array<{ ContactId: string; TypedStartDateTime: string }> }>;
    const now = Date.now();
    const today = results.flatMap((r) => r.Booking).find((b) => {
      const start = Date.parse(b.TypedStartDateTime);
      return now >= start - 120 * 60_000 && now <= start + 30 * 60_000;
    });
    expect(today).toBeDefined();
    const json = { 'content-type': 'application/json' };
    const arrived = await call(`/patients/appointments/?id=${today?.ContactId}`, { method: 'PUT', headers: json, body: JSON.stringify({ status: 'arrived' }) });
    expect(await arrived.json()).toMatchObject({ ResultCode: 'OK' });
    const paid = await call('/patients/paymentnotice/', { method: 'POST', headers: json, body: JSON.stringify({ status: 'PAID', contactId: today?.ContactId, paymentType: 'CARD' }) });
    expect(await paid.json()).toMatchObject([{ ResultCode: 'OK' }]);
    const again = await call('/patients/paymentnotice/', { method: 'POST', headers: json, body: JSON.stringify({ status: 'PAID', contactId: today?.ContactId, paymentType: 'CASH' }) });
    expect(await again.json()).toMatchObject([{ ResultCode: 'INFO' }]);
  });

  it('wrote an audit record for every call, with no credential in it', async () => {
    const trail = await readFile(path.join(dataDir, 'audit', 'audit-trail.jsonl'), 'utf8');
    const lines = trail.trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(7);
    expect(trail).not.toContain(token);
    expect(trail).not.toContain(key);
    expect(logLines.join('\n')).not.toContain(key);
  });
});

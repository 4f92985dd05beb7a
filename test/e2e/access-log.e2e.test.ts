import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURSOR_SECRET_FILE } from '../../src/adapters/page-cursor/cursor-secret.js';
import type { Runtime } from '../../src/start/container.js';
import { startDemoService } from '../support/demo-service.js';

const ADULT = '191212121212';
const SCOPES = 'user/JournalNote-read user/AccessLog-read';

/** The access log as `npm start` composes it: the embedded audit file read back, the cursor secret kept in DATA_DIR. */
describe('issue 14 item 1: the access log end to end on loopback (embedded audit file)', () => {
  let dataDir: string;
  let runtime: Runtime | undefined;
  let api = '';
  let key = '';
  let token = '';

  async function start(): Promise<void> {
    const service = await startDemoService({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', CLIENT_NAMES: 'demo-integration:Demointegrationen' });
    ({ runtime, api, key } = service);
    token = await service.clientToken(SCOPES);
  }

  const call = (url: string) => fetch(`${api}${url}`, { headers: { 'ocp-apim-subscription-key': key, authorization: `Bearer ${token}`, patient: ADULT } });

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdas-e2e-log-'));
    await start();
  });
  afterAll(async () => {
    await runtime?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('issue 14 item 1: a kiosk-style client reads the patient\'s log page by page; a cursor outlives a restart', async () => {
    for (let i = 0; i < 3; i++) expect((await call('/patients/journalnotes/')).status).toBe(200);
    const first = await call('/patients/accesslog/?limit=2');
    expect(first.status).toBe(200);
    const entries = (await first.json()) as Array<{ operation: string; basis: string; clientApplication: { displayName: string } }>;
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ operation: 'getJournalNotes', basis: 'client', clientApplication: { displayName: 'Demointegrationen' } });
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link') ?? '')?.[1] ?? '';
    expect(next).toMatch(/^\/patients\/accesslog\/\?limit=2&cursor=/);
    // The secret is kept owner-only in DATA_DIR, so the same cursor works after a restart.
    expect((await stat(path.join(dataDir, CURSOR_SECRET_FILE))).mode & 0o777).toBe(0o600);
    await runtime?.close();
    await start();
    const second = await call(next);
    expect(second.status).toBe(200);
    const rest = (await second.json()) as Array<{ operation: string }>;
    // The walk ends where the log stood when it began: its own pages are for the next walk to show (the first
    // one's may fall in the millisecond it began, and is then shown by this one).
    expect(rest.map((e) => e.operation).slice(0, 1)).toEqual(['getJournalNotes']);
    expect(rest.slice(1).map((e) => e.operation)).toEqual(rest.length === 2 ? ['getAccessLog'] : []);
    expect(second.headers.get('link')).toBeNull();
    const again = ((await (await call('/patients/accesslog/?limit=10')).json()) as Array<{ operation: string }>).map((e) => e.operation);
    expect(again.slice(0, 5)).toEqual(['getJournalNotes', 'getJournalNotes', 'getJournalNotes', 'getAccessLog', 'getAccessLog']);
    expect(again.slice(5)).toEqual(again.length === 6 ? ['getAccessLog'] : []);
  });
});

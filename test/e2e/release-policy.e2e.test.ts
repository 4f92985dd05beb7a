import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../src/start/container.js';
import { createLogger } from '../../src/http/logging.js';
import { startDemoService } from '../support/demo-service.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';

const LILLA = '201701012393';

/**
 * The service as `npm start` runs it in demo mode, with no RELEASE_POLICY_FILE: the example policy
 * (examples/release-policy.json, issue 52 item 18) read by loadConfig and wired by the composition root,
 * a client token from the demo issuer, over HTTP.
 */
describe('RELEASE_POLICY_FILE end to end (issue 14 item 2)', () => {
  let dataDir: string;
  let runtime: Runtime;
  let api: string;
  let key: string;
  let token: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdas-release-e2e-'));
    const service = await startDemoService({
      DATA_DIR: dataDir, LOG_LEVEL: 'info', CORS_ORIGINS: 'https://app.example',
    }, createLogger('info', { write: (l: string) => void logLines.push(l) }));
    ({ runtime, api, key } = service);
    token = await service.clientToken('user/JournalNote-read user/Appointment-read');
  });

  afterAll(async () => {
    await runtime?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const call = (url: string) => fetch(`${api}${url}`, {
    headers: { 'ocp-apim-subscription-key': key, authorization: `Bearer ${token}`, patient: LILLA, origin: 'https://app.example' },
  });

  it('issue 14 item 2: says at start that a policy is in force, and which rules', () => {
    const line = logLines.map((l) => JSON.parse(l) as { msg?: string; releaseRules?: string[] }).find((l) => l.releaseRules !== undefined);
    expect(line?.msg).toMatch(/release policy in force/);
    expect(line?.releaseRules).toEqual(expect.arrayContaining(['careUnits', 'keywords', 'signingDelay', 'guardianAgeLimit']));
    const running = logLines.map((l) => JSON.parse(l) as { msg?: string; releasePolicy?: string }).find((l) => l.msg?.startsWith('running: '));
    expect(running?.releasePolicy).toBe(`the example ${path.join(REPOSITORY_ROOT, 'examples', 'release-policy.json')} (demo mode without RELEASE_POLICY_FILE)`);
  });

  it('issue 14 item 2: withholds from a client token what the policy withholds, says so in a header a browser may read', async () => {
    const res = await call('/patients/journalnotes/');
    expect(res.status).toBe(200);
    expect(res.headers.get('patient-data-filtered')).toBe('true');
    expect(res.headers.get('access-control-expose-headers')).toContain('Patient-Data-Filtered');
    const body = await res.text();
    expect(body).not.toMatch(/Barnahus|Orosanmälan/);
    // Lilla is under the example's patientAgeLimit (16), which holds her own reads only (issue 52 item 20): the rest of her notes.
    expect((JSON.parse(body) as { JournalNoteEHRExtract: unknown[] }[])[0]?.JournalNoteEHRExtract.length).toBeGreaterThan(0);
    const bookings = await call('/patients/appointments/');
    expect(bookings.status).toBe(200);
    expect(bookings.headers.get('patient-data-filtered')).toBeNull();
  });
});

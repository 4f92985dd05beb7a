/**
 * Issue 44 item 6: the service as `npm start` composes it keys its trail (demo mode: with a key it
 * keeps in DATA_DIR) and logs a signed head of it at start, every AUDIT_HEAD_INTERVAL_MS and when it
 * stops; `npm run audit -- --verify --head <its log>` then checks the trail against every head, and
 * a tail rewritten after them fails (docs/operations.md#signed-heads).
 */
import { stat, writeFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CHAIN_KEY_FILE } from '../../src/adapters/audit-chain/chain-keys.js';
import { headsIn } from '../../src/adapters/audit-chain/signed-head.js';
import { createLogger } from '../../src/http/logging.js';
import { rewriteFileTail } from '../adapters/audit-query/keyed-trails.js';
import { startDemoService } from '../support/demo-service.js';
import { pollUntil } from '../support/poll.js';
import { runScript, RUNS_COMMANDS } from '../support/run-script.js';

describe('issue 44 item 6: the running service signs its trail\'s head into its log', RUNS_COMMANDS, () => {
  let dir: string;
  let logFile: string;
  const lines: string[] = [];
  let metrics = '';
  let notices: string[] = [];
  const heads = () => headsIn(lines.join('')).map((h) => h.head).filter((h) => h !== 'malformed');
  const verify = (args: string[]) => runScript('audit.ts', ['--verify', ...args], { DATA_DIR: dir, AUDIT_CHAIN_KEY_FILE: '' });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'signed-heads-'));
    logFile = path.join(dir, 'service.log');
    const service = await startDemoService({ DATA_DIR: dir, AUDIT_HEAD_INTERVAL_MS: '1000' }, createLogger('info', { write: (l: string) => void lines.push(l) }));
    notices = service.runtime.notices;
    // Refusals of three kinds: each the first of its kind this minute, so each is audited.
    for (const read of ['journalnotes', 'medications', 'labresults']) {
      expect((await fetch(`${service.api}/patients/${read}/`, { headers: { 'Ocp-Apim-Subscription-Key': service.key } })).status).toBe(401);
    }
    await pollUntil(async () => heads().at(-1)?.id ?? 0, (id) => id >= 3, 10_000);
    metrics = (await service.runtime.metricsApp.inject({ url: '/metrics' })).body;
    await service.runtime.close();
    await writeFile(logFile, lines.join(''));
  }, 60_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('makes its demo key once, owner-only in DATA_DIR, and says where', async () => {
    expect((await stat(path.join(dir, DEMO_CHAIN_KEY_FILE))).mode & 0o777).toBe(0o600);
    expect(notices).toContain(`demo audit chain key: in ${path.join(dir, DEMO_CHAIN_KEY_FILE)}`);
  });

  it('logs a head at start, at each interval and at the end, and says when in its metrics', () => {
    const signed = heads();
    expect(signed[0]?.id).toBe(0);
    expect(signed.at(-1)).toMatchObject({ store: 'file', id: 3 });
    expect(signed.length).toBeGreaterThanOrEqual(3);
    expect(metrics).toMatch(/^pdas_audit_head_interval_seconds 1$/m);
    expect(Number(/^pdas_audit_head_signed_timestamp_seconds (\S+)$/m.exec(metrics)?.[1])).toBeGreaterThan(Date.now() / 1000 - 60);
  });

  it('verify with the log as heads: intact, every head found holding its hash; a tail rewritten without the key fails at its first line', async () => {
    const intact = await verify(['--head', logFile]);
    expect([intact.code, intact.stderr]).toEqual([0, '']);
    expect(intact.stdout).toMatch(/: intact, 3 lines checked from the first line\.\n.*\nKeyed with demo-[0-9a-f]{8} \(3 lines\)\.\nSigned heads: (\d+) of \1 found holding their hash\.\n$/);
    await rewriteFileTail(path.join(dir, 'audit', 'audit-trail.jsonl'), 2, 'unkeyed', (record) => { record.status = 200; });
    const rewritten = await verify(['--head', logFile]);
    expect(rewritten.code).toBe(3);
    expect(rewritten.stdout).toMatch(/BROKEN at line 2 \(.*\): it carries no key id after keyed records: it was rewritten without the chain key\./);
  });
});

/**
 * Issue 22 item 6: logs are JSON by default (production) and human lines with LOG_FORMAT=pretty (a
 * terminal, `npm run dev`); any other LOG_FORMAT refuses to start, naming the allowed values. The
 * real service, spawned as `npm start` runs it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runService } from '../support/spawn-service.js';
import { CHAIN_KEY_ENV } from '../support/chain-key.js';

/** The service's output up to its "listening" line, or all of it if it ends first. */
const runUntilListening = (env: Record<string, string>, dataDir: string) =>
  runService(env, dataDir, (stdout) => stdout.includes('patient data access service listening'));

const isJson = (line: string): boolean => {
  try {
    return typeof JSON.parse(line) === 'object';
  } catch {
    return false;
  }
};

describe('issue 22 item 6: LOG_FORMAT', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdas-log-format-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('pretty: the log lines a person reads in a terminal are not JSON, and say the level and the message', async () => {
    const { stdout } = await runUntilListening({ LOG_FORMAT: 'pretty' }, dataDir);
    const logLines = stdout.split('\n').filter((l) => /^\[\d\d:\d\d:\d\d\.\d{3}\] [A-Z]+:/.test(l));
    expect(logLines.length).toBeGreaterThan(1);
    expect(logLines.some((l) => l.includes('INFO: patient data access service listening'))).toBe(true);
    expect(stdout.split('\n').filter(isJson)).toEqual([]);
  }, 70_000);

  it('json (the default): every log line is a JSON object', async () => {
    const { stdout } = await runUntilListening({}, dataDir);
    const logLines = stdout.split('\n').filter((l) => l.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(1);
    expect(logLines.every(isJson)).toBe(true);
    expect(logLines.some((l) => (JSON.parse(l) as { msg?: string }).msg === 'patient data access service listening')).toBe(true);
  }, 70_000);

  it('issue 38: one info line before the listening line says what runs, in the demo and in a real deployment, without a credential', async () => {
    const lines = (stdout: string) => stdout.split('\n').filter(isJson).map((l) => JSON.parse(l) as Record<string, unknown>);
    const demo = lines((await runUntilListening({}, dataDir)).stdout);
    const at = (all: Array<Record<string, unknown>>, start: string) => all.findIndex((l) => typeof l.msg === 'string' && l.msg.startsWith(start));
    expect(demo.filter((l) => String(l.msg).startsWith('running: '))).toHaveLength(1);
    expect(at(demo, 'running: ')).toBeLessThan(at(demo, 'patient data access service listening'));
    expect(demo[at(demo, 'running: ')]).toMatchObject({
      level: 30, ehr: `embedded, generated demo data in ${path.join(dataDir, 'demo-ehr')}`,
      auditStore: `file ${path.join(dataDir, 'audit', 'audit-trail.jsonl')}`, rateLimitStore: 'in-process', fhirApi: 'on', mode: 'demo',
    });
    // Nothing listens at these: the service starts anyway, not ready (docs/operations.md#scaling-out).
    const real = await runUntilListening({
      AUTH_ISSUER: 'http://127.0.0.1:1/issuer', SUBSCRIPTION_KEYS: 'app:subscription-key-iiiiiiiiiiii', ...CHAIN_KEY_ENV, FHIR_API: 'off', RELEASE_POLICY_FILE: 'none',
      EHR_ADAPTER: 'xml-http', EHR_BASE_URL: 'http://127.0.0.1:1/ehr',
      DATABASE_URL: 'postgres://pdas:db-secret@127.0.0.1:1/pdas?password=query-secret', REDIS_URL: 'redis://:redis-secret@127.0.0.1:1/0',
    }, dataDir);
    const running = lines(real.stdout).find((l) => String(l.msg).startsWith('running: '));
    expect(running?.msg).toBe('running: EHR xml-http at http://127.0.0.1:1/ehr; audit trail in PostgreSQL postgres://127.0.0.1:1/pdas schema audit; '
      + 'rate limits in Redis redis://127.0.0.1:1/0; FHIR API off; release policy none (RELEASE_POLICY_FILE=none: nothing withheld); production mode');
    expect(real.stdout + real.stderr).not.toMatch(/db-secret|query-secret|redis-secret/);
  }, 140_000);

  it('anything else refuses to start, naming the allowed values', async () => {
    const { stdout, stderr, code } = await runUntilListening({ LOG_FORMAT: 'colour' }, dataDir);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe('cannot start: LOG_FORMAT must be one of json, pretty (json for production, pretty for a terminal)');
    expect(stdout).toBe('');
  }, 70_000);
});

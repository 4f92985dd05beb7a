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

  it('anything else refuses to start, naming the allowed values', async () => {
    const { stdout, stderr, code } = await runUntilListening({ LOG_FORMAT: 'colour' }, dataDir);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe('cannot start: LOG_FORMAT must be one of json, pretty (json for production, pretty for a terminal)');
    expect(stdout).toBe('');
  }, 70_000);
});

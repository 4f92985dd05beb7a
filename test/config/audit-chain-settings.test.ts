/**
 * Issue 44 item 6: the audit chain's settings (docs/operations.md#the-chain-key). Outside demo mode the
 * chain is keyed with AUDIT_CHAIN_KEY_FILE, a key the audit store never holds; without it the service
 * starts with an unkeyed chain and says so, and signs no head. Only demo mode makes a key of its own.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PrometheusMetrics } from '../../src/adapters/metrics/prometheus-metrics.js';
import { createLogger } from '../../src/http/logging.js';
import { UNKEYED_CHAIN_WARNING } from '../../src/start/audit-chain-settings.js';
import { selectAuditTrail } from '../../src/start/audit-selection.js';
import { loadConfig } from '../../src/start/config.js';
import { Lifecycle } from '../../src/start/lifecycle.js';
import { CHAIN_KEY_ENV, TEST_CHAIN_KEY_FILE } from '../support/chain-key.js';
import { refusal } from '../support/config-refusal.js';

const dir = mkdtempSync(path.join(tmpdir(), 'pdas-chain-settings-'));
const BASE = { DATA_DIR: path.join(dir, 'data') };
const PRODUCTION = { ...BASE, AUTH_ISSUER: 'https://login.region.example', SUBSCRIPTION_KEYS: 'app:subscription-key-kkkkkkkkkkkk', RELEASE_POLICY_FILE: 'none' };

describe('issue 44 item 6: AUDIT_CHAIN_KEY_FILE and AUDIT_HEAD_INTERVAL_MS', () => {
  it('outside demo mode a start without AUDIT_CHAIN_KEY_FILE goes on unkeyed; with it, the chain is keyed', () => {
    expect(loadConfig(PRODUCTION).auditChainKeys).toBeUndefined();
    const config = loadConfig({ ...PRODUCTION, ...CHAIN_KEY_ENV });
    expect(config.auditChainKeys?.signing.id).toBe('test-1');
    expect(config.auditHeadIntervalMs).toBe(300_000);
  });

  it('a file that cannot be read or holds no usable key stops the start, naming the file and the line', () => {
    const bad = path.join(dir, 'bad-key');
    writeFileSync(bad, 'k1:too-short\n');
    expect(refusal({ ...PRODUCTION, AUDIT_CHAIN_KEY_FILE: path.join(dir, 'missing') })).toMatch(/^AUDIT_CHAIN_KEY_FILE .*missing cannot be read \(ENOENT\): mount/);
    expect(refusal({ ...PRODUCTION, AUDIT_CHAIN_KEY_FILE: bad })).toMatch(/^AUDIT_CHAIN_KEY_FILE .*bad-key: line 1 must be <key id>:<secret>/);
    expect(refusal({ ...PRODUCTION, AUDIT_CHAIN_KEY_FILE: bad })).not.toContain('too-short');
  });

  it('demo mode needs none; AUDIT_HEAD_INTERVAL_MS is bounded', () => {
    expect(loadConfig(BASE).auditChainKeys).toBeUndefined();
    expect(loadConfig({ ...BASE, AUDIT_CHAIN_KEY_FILE: TEST_CHAIN_KEY_FILE }).auditChainKeys?.byId.size).toBe(1);
    expect(loadConfig({ ...BASE, AUDIT_HEAD_INTERVAL_MS: '60000' }).auditHeadIntervalMs).toBe(60_000);
    for (const bad of ['999', '86400001', 'five minutes']) {
      expect(refusal({ ...BASE, AUDIT_HEAD_INTERVAL_MS: bad })).toMatch(/^AUDIT_HEAD_INTERVAL_MS must be an integer from 1000 to 86400000/);
    }
  });

  it('outside demo mode without a key: an unkeyed trail, one warning naming the setting, no key made, no head signed', async () => {
    const dataDir = mkdtempSync(path.join(dir, 'made-'));
    const config = loadConfig({ ...PRODUCTION, DATA_DIR: dataDir });
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => { lines.push(line); } });
    const life = new Lifecycle();
    const selection = { config, clock: { now: () => Date.now() }, logger, life, metrics: new PrometheusMetrics({ defaultMetrics: false }) };
    const trail = await selectAuditTrail(selection);
    await life.closeAll();
    const warned = lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level === 40);
    expect(warned.map((l) => l.msg)).toEqual([UNKEYED_CHAIN_WARNING]);
    expect(lines.join('\n')).not.toContain('audit chain head');
    expect(trail).toBeDefined();
    expect(readdirSync(dataDir).filter((f) => f.includes('key'))).toEqual([]);
  });
});

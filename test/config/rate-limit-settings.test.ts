import { describe, expect, it } from 'vitest';
import { PrometheusMetrics } from '../../src/adapters/metrics/prometheus-metrics.js';
import { createLogger } from '../../src/http/logging.js';
import { NO_REDIS_WARNING, selectRedis } from '../../src/start/adapter-selection.js';
import { ConfigError, loadConfig } from '../../src/start/config.js';
import { Lifecycle } from '../../src/start/lifecycle.js';

const BASE = { DATA_DIR: '/tmp/pdas-config-test' };

function refusal(env: Record<string, string>): string {
  try {
    loadConfig({ ...BASE, ...env });
  } catch (err) {
    return err instanceof ConfigError ? err.message : `not a ConfigError: ${String(err)}`;
  }
  return 'started';
}

describe('RATE_LIMIT_APP_MAX, the ceiling of an app\'s users together (docs/operations.md#rate-limits-of-an-app)', () => {
  it('issue 44 item 4: defaults to twenty users\' worth of RATE_LIMIT_MAX, and reads what is given', () => {
    expect(loadConfig(BASE)).toMatchObject({ rateLimitMax: 100, rateLimitAppMax: 2000 });
    expect(loadConfig({ ...BASE, RATE_LIMIT_MAX: '7' })).toMatchObject({ rateLimitMax: 7, rateLimitAppMax: 140 });
    expect(loadConfig({ ...BASE, RATE_LIMIT_MAX: '7', RATE_LIMIT_APP_MAX: '7' })).toMatchObject({ rateLimitAppMax: 7 });
  });

  it('issue 44 item 4: a ceiling below one user\'s budget, or not a whole number, stops the start naming both settings', () => {
    expect(refusal({ RATE_LIMIT_MAX: '100', RATE_LIMIT_APP_MAX: '99' })).toMatch(/^RATE_LIMIT_APP_MAX \(99\) must be at least RATE_LIMIT_MAX \(100\)/);
    for (const value of ['0', '1.5', 'many']) expect(refusal({ RATE_LIMIT_APP_MAX: value })).toMatch(/^RATE_LIMIT_APP_MAX must be an integer/);
  });
});

// Hostile review helper-192, F5: a production start without REDIS_URL kept its limits and write turns in one instance
// and said nothing, where behind a load balancer a retry on another instance may be sent while the first is still made.
describe('REDIS_URL absent (docs/operations.md#scaling-out)', () => {
  const startLines = async (env: Record<string, string>): Promise<string[]> => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => { lines.push(line); } });
    const life = new Lifecycle();
    const selection = { config: loadConfig({ ...BASE, ...env }), clock: { now: () => Date.now() }, logger, life, metrics: new PrometheusMetrics({ defaultMetrics: false }) };
    expect(await selectRedis(selection)).toBeUndefined();
    await life.closeAll();
    return lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level === 40).map((l) => l.msg);
  };

  it('outside demo mode says once, naming it, that limits and write turns hold within this instance only; demo mode says nothing', async () => {
    const warned = await startLines({ AUTH_ISSUER: 'https://login.region.example', SUBSCRIPTION_KEYS: 'app:subscription-key-kkkkkkkkkkkk', RELEASE_POLICY_FILE: 'none' });
    expect(warned).toEqual([NO_REDIS_WARNING]);
    expect(NO_REDIS_WARNING).toMatch(/^REDIS_URL is not set: .*this instance only.*second instance/);
    expect(await startLines({})).toEqual([]);
  });
});

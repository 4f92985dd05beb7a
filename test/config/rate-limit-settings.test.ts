import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/start/config.js';

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

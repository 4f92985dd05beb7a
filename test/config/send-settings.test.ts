import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/start/config.js';

const BASE = { DATA_DIR: '/tmp/pdas-config-test' };

describe('SEND_GRACE_MS and SEND_MIN_BYTES_PER_S (docs/contract.md#settings)', () => {
  it('issue 34 item 4: default to a 10 s grace and 16384 bytes a second, and read what is given', () => {
    expect(loadConfig(BASE)).toMatchObject({ sendGraceMs: 10_000, sendMinBytesPerS: 16_384 });
    expect(loadConfig({ ...BASE, SEND_GRACE_MS: '0', SEND_MIN_BYTES_PER_S: '1048576' })).toMatchObject({ sendGraceMs: 0, sendMinBytesPerS: 1_048_576 });
  });

  it('issue 34 item 4: a value that is not a whole number in range stops the start, naming the setting and what it is; the rate cannot be turned off', () => {
    const refusal = (env: Record<string, string>): string => {
      try {
        loadConfig({ ...BASE, ...env });
      } catch (err) {
        return err instanceof ConfigError ? err.message : `not a ConfigError: ${String(err)}`;
      }
      return 'started';
    };
    for (const value of ['-1', '1.5', '10s', '600001']) {
      expect(refusal({ SEND_GRACE_MS: value })).toMatch(/^SEND_GRACE_MS must be an integer from 0 to 600000 \(milliseconds/);
    }
    for (const value of ['0', '16 KiB', '1073741825']) {
      expect(refusal({ SEND_MIN_BYTES_PER_S: value })).toMatch(/^SEND_MIN_BYTES_PER_S must be an integer from 1 to 1073741824 \(bytes a second.*cannot be turned off/);
    }
  });
});

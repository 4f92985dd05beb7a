import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/start/config.js';

const BASE = { DATA_DIR: '/tmp/pdas-config-test' };

describe('EHR_CACHE_BYTES (docs/running.md#settings)', () => {
  it('issue 56: defaults to 64 MiB of kept mappings, and reads what is given, 0 (keep none) included', () => {
    expect(loadConfig(BASE).ehrCacheBytes).toBe(64 * 2 ** 20);
    expect(loadConfig({ ...BASE, EHR_CACHE_BYTES: '0' }).ehrCacheBytes).toBe(0);
    expect(loadConfig({ ...BASE, EHR_CACHE_BYTES: '268435456' }).ehrCacheBytes).toBe(268_435_456);
  });

  it('issue 56: a value that is not a whole number of bytes in range stops the start, naming the setting', () => {
    for (const value of ['-1', '64 MiB', '1.5', '17179869185']) {
      expect(() => loadConfig({ ...BASE, EHR_CACHE_BYTES: value }), value).toThrow(ConfigError);
      expect(() => loadConfig({ ...BASE, EHR_CACHE_BYTES: value }), value).toThrow(/^EHR_CACHE_BYTES must be an integer from 0 to 17179869184 \(bytes of mapped documents/);
    }
  });
});

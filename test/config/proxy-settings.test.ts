/**
 * The sharing settings (docs/proxies.md#for-a-region): on in demo mode, off elsewhere unless turned
 * on; each limit a whole number in its range, a wrong one stopping the start with its name.
 */
import { describe, expect, it } from 'vitest';
import { readProxySettings } from '../../src/start/proxy-settings.js';

const fail = (message: string) => new Error(message);

describe('readProxySettings', () => {
  it('takes the defaults in demo mode, grants given in a day among them (hostile reviews helper-161 F1, helper-162 F3)', () => {
    expect(readProxySettings({}, true, fail).proxies).toEqual({ invitationDays: 7, maxGrants: 10, maxGrantsPerDay: 20, maxGrantsToOnePerDay: 3 });
    expect(readProxySettings({}, false, fail).proxies).toBeUndefined();
  });

  it('takes the day\'s limits as set, and stops the start naming one out of its range', () => {
    const env = { PROXY_GRANTS: 'on', PROXY_MAX_GRANTS_PER_DAY: '50', PROXY_MAX_GRANTS_TO_ONE_PER_DAY: '5' };
    expect(readProxySettings(env, false, fail).proxies).toMatchObject({ maxGrantsPerDay: 50, maxGrantsToOnePerDay: 5 });
    for (const [name, value, range] of [
      ['PROXY_MAX_GRANTS_PER_DAY', '0', '1 to 10000'], ['PROXY_MAX_GRANTS_PER_DAY', '20.5', '1 to 10000'],
      ['PROXY_MAX_GRANTS_TO_ONE_PER_DAY', '101', '1 to 100'], ['PROXY_MAX_GRANTS_TO_ONE_PER_DAY', 'three', '1 to 100'],
    ] as const) {
      expect(() => readProxySettings({ PROXY_GRANTS: 'on', [name]: value }, false, fail)).toThrow(`${name} must be an integer from ${range}`);
    }
  });
});

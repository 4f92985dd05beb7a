/**
 * src/adapters/auth-server/raced-grants.ts: a request that lost the race for a code or refresh token is
 * answered as a replay (invalid_grant) even when the grant's end cannot be made; that failure is logged.
 * Failed before d96ab9c: the end's own error replaced the answer (a server error).
 */
import { describe, expect, it } from 'vitest';
import { endingLostRaces, UsedElsewhereFirst } from '../../../src/adapters/auth-server/raced-grants.js';
import { LaunchPicks } from '../../../src/adapters/auth-server/smart-launch.js';
import type { SmartLaunchContext } from '../../../src/ports/smart-launch.port.js';

describe('a consumption lost to another request', () => {
  it('is refused as a replay whatever ending the grant comes to, and an end not made is told to the operators', async () => {
    const lost = new UsedElsewhereFirst('grant-1', 'refresh token');
    const store = { consume: async (): Promise<void> => { throw lost; } };
    const told: Error[] = [];
    // Outside a request there is no context to end the grant with: the end fails, as a store fault would.
    const adapter = endingLostRaces(() => store, {} as SmartLaunchContext, new LaunchPicks(60), (error) => void told.push(error))('RefreshToken') as typeof store;
    await expect(adapter.consume()).rejects.toBe(lost);
    expect(told.map((e) => e.message)).toEqual(['a code or refresh token consumed outside a request']);
  });

  it('leaves a consumption that won, or an adapter without one, as it is', async () => {
    let consumed = 0;
    const won = endingLostRaces(() => ({ consume: async () => void consumed++ }), {} as SmartLaunchContext, new LaunchPicks(60), () => undefined)('AuthorizationCode') as { consume(): Promise<void> };
    await won.consume();
    expect(consumed).toBe(1);
    const session = { find: async () => undefined };
    expect(endingLostRaces(() => session, {} as SmartLaunchContext, new LaunchPicks(60), () => undefined)('Session')).toBe(session);
  });
});

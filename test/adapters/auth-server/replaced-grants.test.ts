/**
 * src/adapters/auth-server/grant-endings.ts `replacedGrants`: a new consent replaces the person's live
 * grants to the same app for the same pick, never one that ended. A replayed (or raced) refresh token, or
 * an RFC 7009 revocation, ends a grant and leaves its pick until its lifetime; the next consent took it
 * for a grant it replaced, so a subscription made under the ended grant lived on through the new one
 * (hostile review helper-96, 1). Failed before: both grants were replaced.
 */
import type Provider from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { keepGrant, replacedGrants } from '../../../src/adapters/auth-server/grant-endings.js';
import { LaunchPicks } from '../../../src/adapters/auth-server/smart-launch.js';

const KEPT = { accountId: '198112189876', clientId: 'app', patientId: 'lilla', fhirUser: 'RelatedPerson/x' };

/** A provider whose grants are `alive`, as far as replacedGrants and keepGrant ask it. */
function providerWith(alive: Set<string>): Provider {
  const ended = async (id: string): Promise<void> => void alive.delete(id);
  return {
    Grant: { adapter: { find: async (id: string) => (alive.has(id) ? { accountId: KEPT.accountId, clientId: KEPT.clientId } : undefined), destroy: ended } },
    RefreshToken: { revokeByGrantId: async () => undefined },
    AuthorizationCode: { revokeByGrantId: async () => undefined },
    AccessToken: { revokeByGrantId: async () => undefined },
  } as unknown as Provider;
}

describe('the grants a new consent replaces', () => {
  it('are the live ones: a grant that ended, its pick still kept, is replaced by none and held through none', async () => {
    const picks = new LaunchPicks(3600);
    await picks.remember('live', KEPT);
    await picks.remember('ended', KEPT);
    const provider = providerWith(new Set(['live', 'new']));
    const replaced = await replacedGrants(provider, picks, KEPT, undefined);
    expect(replaced.map((g) => g.grantId)).toEqual(['live']);
    await keepGrant(provider, picks, 'new', KEPT, replaced);
    expect((await picks.kept('new'))?.replaces).toEqual(['live']);
  });
});

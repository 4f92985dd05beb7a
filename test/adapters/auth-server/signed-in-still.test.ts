/**
 * docs/notifications.md#checked-at-sending: a subscription lives while its app is signed in for it,
 * under the grant it was made with or the one a later consent of the same person, app and pick
 * replaced it with; a revoked or expired grant with no such successor holds nothing, nor does another
 * app's, another pick's or another person's live grant.
 */
import { describe, expect, it } from 'vitest';
import type Provider from 'oidc-provider';
import { endGrant, holdingGrant, keepGrant, REPLACED_KEPT, scopesOfGrant, scopesStillHeld } from '../../../src/adapters/auth-server/grant-endings.js';
import { LaunchPicks, type KeptGrant } from '../../../src/adapters/auth-server/smart-launch.js';
import type { GrantHolder } from '../../../src/ports/access-token-verifier.port.js';

const PERSON = '191212121212';
const OTHER = '198112189876';

describe('whether an app is still signed in for a subscription\'s grant', () => {
  const setUp = async (alive: Record<string, GrantHolder>, kept: Record<string, { accountId: string; clientId: string; patientId?: string; replaces?: string[] }>) => {
    const picks = new LaunchPicks(3600);
    // A launch's pick names its fhirUser too (a plain grant has neither).
    for (const [grantId, k] of Object.entries(kept)) await picks.remember(grantId, k.patientId === undefined ? k : { ...k, fhirUser: `Patient/${k.patientId}` });
    return async (held: { grantId: string; personId?: string; clientId?: string; smartPatient?: string }) => (await holdingGrant(picks, async (id) => alive[id], {
      personId: PERSON, clientId: 'app', ...held,
    })) !== undefined;
  };

  it('holds while its own grant is alive and its person\'s for its app', async () => {
    const holds = await setUp({ g1: { accountId: PERSON, clientId: 'app' } }, { g1: { accountId: PERSON, clientId: 'app', patientId: 'p-1' } });
    expect(await holds({ grantId: 'g1', smartPatient: 'p-1' })).toBe(true);
    // The grant id of someone else's grant, or another app's, is no grant of this subscription.
    expect(await holds({ grantId: 'g1', personId: OTHER })).toBe(false);
    expect(await holds({ grantId: 'g1', clientId: 'another-app' })).toBe(false);
  });

  it('holds through the grant that replaced it: the same person, app and pick, alive, naming it; its scopes are the successor\'s', async () => {
    const holds = await setUp({ g2: { accountId: PERSON, clientId: 'app' } }, { g2: { accountId: PERSON, clientId: 'app', patientId: 'p-1', replaces: ['g1'] } });
    expect(await holds({ grantId: 'g1', smartPatient: 'p-1' })).toBe(true);
    const picks = new LaunchPicks(3600);
    await picks.remember('g2', { accountId: PERSON, clientId: 'app', patientId: 'p-1', fhirUser: 'Patient/p-1', replaces: ['g1'] });
    const payloads: Record<string, unknown> = {
      g1: { openid: { scope: 'openid launch/patient' }, resources: { api: 'patient/*.rs patient/Subscription.c' } },
      g2: { openid: { scope: 'openid launch/patient' }, resources: { api: 'patient/Observation.rs' } },
    };
    const scopes = await scopesStillHeld(picks, async (id) => (id === 'g2' ? { accountId: PERSON, clientId: 'app' } : undefined), async (id) => payloads[id], {
      grantId: 'g1', personId: PERSON, clientId: 'app', smartPatient: 'p-1',
    });
    expect([...scopes ?? []].sort()).toEqual(['launch/patient', 'openid', 'patient/Observation.rs']);
  });

  it('reads a grant\'s scopes from its OIDC scope and every resource\'s, and none from what is no grant', () => {
    expect([...scopesOfGrant({ openid: { scope: 'openid  fhirUser' }, resources: { a: 'user/*.rs', b: 'patient/Subscription.c' } }) ?? []])
      .toEqual(['openid', 'fhirUser', 'user/*.rs', 'patient/Subscription.c']);
    expect([...scopesOfGrant({ accountId: PERSON }) ?? []]).toEqual([]);
    expect(scopesOfGrant(undefined)).toBeUndefined();
  });

  it('a grant revoked, then a new sign-in to the same app for the same pick: the new grant replaced nothing, so nothing revives', async () => {
    const holds = await setUp({ g2: { accountId: PERSON, clientId: 'app' } }, { g2: { accountId: PERSON, clientId: 'app', patientId: 'p-1' } });
    expect(await holds({ grantId: 'g1', smartPatient: 'p-1' })).toBe(false);
  });

  it('holds nothing once no grant of the same person, app and pick lives: revoked, expired, or another pick\'s or app\'s', async () => {
    const holds = await setUp(
      { g2: { accountId: PERSON, clientId: 'app' }, g3: { accountId: PERSON, clientId: 'another-app' }, g5: { accountId: OTHER, clientId: 'app' } },
      {
        g2: { accountId: PERSON, clientId: 'app', patientId: 'p-2' }, g3: { accountId: PERSON, clientId: 'another-app', patientId: 'p-1' },
        // A pick kept past its grant's end (the grant no longer alive) is no successor.
        g4: { accountId: PERSON, clientId: 'app', patientId: 'p-1' }, g5: { accountId: OTHER, clientId: 'app', patientId: 'p-1' },
      },
    );
    expect(await holds({ grantId: 'g1', smartPatient: 'p-1' })).toBe(false);
    // A plain grant (no pick) is replaced by a plain one only.
    expect(await holds({ grantId: 'g1' })).toBe(false);
  });

  describe('through keepGrant and endGrant, as consents, revokes and sign-outs call them', () => {
    const alive = new Map<string, GrantHolder>();
    const ended = async (): Promise<void> => {};
    // What endGrant asks of oidc-provider: its tokens' revocations and the grant's destruction.
    const provider = {
      RefreshToken: { revokeByGrantId: ended }, AuthorizationCode: { revokeByGrantId: ended }, AccessToken: { revokeByGrantId: ended },
      Grant: { adapter: { destroy: async (id: string) => { alive.delete(id); } } },
    } as unknown as Provider;
    const KEPT: KeptGrant = { accountId: PERSON, clientId: 'app', patientId: 'p-1', fhirUser: 'Patient/p-1' };
    const held = { grantId: 'g1', personId: PERSON, clientId: 'app', smartPatient: 'p-1' };
    const consent = async (picks: LaunchPicks, grantId: string): Promise<void> => {
      alive.set(grantId, { accountId: PERSON, clientId: 'app' });
      const replaced = (await picks.opening(PERSON, [])).filter((k) => k.clientId === 'app' && k.patientId === 'p-1' && k.grantId !== grantId);
      await keepGrant(provider, picks, grantId, KEPT, replaced);
    };
    const holds = async (picks: LaunchPicks): Promise<boolean> => (await holdingGrant(picks, async (id) => alive.get(id), held)) !== undefined;

    it('consenting again, and again, keeps it; extending the same grant forgets nothing', async () => {
      alive.clear();
      const picks = new LaunchPicks(3600);
      await consent(picks, 'g1');
      await consent(picks, 'g2');
      await consent(picks, 'g3');
      expect(alive.has('g1') || alive.has('g2')).toBe(false);
      expect(await holds(picks)).toBe(true);
      await consent(picks, 'g3');
      expect(await holds(picks)).toBe(true);
    });

    it('revoked (or signed out of) and signed in again: it holds nothing', async () => {
      alive.clear();
      const picks = new LaunchPicks(3600);
      await consent(picks, 'g1');
      await consent(picks, 'g2');
      await endGrant(provider, picks, 'g2');
      await consent(picks, 'g3');
      expect(await holds(picks)).toBe(false);
    });

    it(`remembers the last ${String(REPLACED_KEPT)} grants it replaced, no more`, async () => {
      alive.clear();
      const picks = new LaunchPicks(3600);
      for (let i = 1; i <= REPLACED_KEPT + 1; i += 1) await consent(picks, `g${String(i)}`);
      expect(await holds(picks)).toBe(true);
      await consent(picks, `g${String(REPLACED_KEPT + 2)}`);
      expect(await holds(picks)).toBe(false);
    });
  });
});

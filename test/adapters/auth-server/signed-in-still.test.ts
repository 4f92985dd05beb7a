/**
 * docs/notifications.md#checked-at-sending: a subscription lives while its app is signed in for it,
 * under the grant it was made with or the one a later consent of the same person, app and pick
 * replaced it with; a revoked or expired grant with no such successor holds nothing, nor does another
 * app's, another pick's or another person's live grant.
 */
import { describe, expect, it } from 'vitest';
import { signedInStill } from '../../../src/adapters/auth-server/grant-endings.js';
import { LaunchPicks } from '../../../src/adapters/auth-server/smart-launch.js';
import type { GrantHolder } from '../../../src/ports/access-token-verifier.port.js';

const PERSON = '191212121212';
const OTHER = '198112189876';

describe('whether an app is still signed in for a subscription\'s grant', () => {
  const setUp = async (alive: Record<string, GrantHolder>, kept: Record<string, { accountId: string; clientId: string; patientId?: string }>) => {
    const picks = new LaunchPicks(3600);
    // A launch's pick names its fhirUser too (a plain grant has neither).
    for (const [grantId, k] of Object.entries(kept)) await picks.remember(grantId, k.patientId === undefined ? k : { ...k, fhirUser: `Patient/${k.patientId}` });
    return (held: { grantId: string; personId?: string; clientId?: string; smartPatient?: string }) => signedInStill(picks, async (id) => alive[id], {
      personId: PERSON, clientId: 'app', ...held,
    });
  };

  it('holds while its own grant is alive and its person\'s for its app', async () => {
    const holds = await setUp({ g1: { accountId: PERSON, clientId: 'app' } }, { g1: { accountId: PERSON, clientId: 'app', patientId: 'p-1' } });
    expect(await holds({ grantId: 'g1', smartPatient: 'p-1' })).toBe(true);
    // The grant id of someone else's grant, or another app's, is no grant of this subscription.
    expect(await holds({ grantId: 'g1', personId: OTHER })).toBe(false);
    expect(await holds({ grantId: 'g1', clientId: 'another-app' })).toBe(false);
  });

  it('holds through the grant that replaced it: the same person, app and pick, alive', async () => {
    const holds = await setUp({ g2: { accountId: PERSON, clientId: 'app' } }, { g2: { accountId: PERSON, clientId: 'app', patientId: 'p-1' } });
    expect(await holds({ grantId: 'g1', smartPatient: 'p-1' })).toBe(true);
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
});

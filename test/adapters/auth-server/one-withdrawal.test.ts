/**
 * A grant's end is one withdrawal in the access log, whichever ends race in this process (hostile
 * review helper-150, LOW-A): the person revoking it on the connected-apps page, the app revoking its
 * token (RFC 7009), a sign-out or a replay ending it at the same moment. The first to record it records
 * it; the others, finding that record in flight or stored, wait for it and record nothing of their own.
 * A record the store refuses is shared by those waiting on it and forgotten, so a later end records anew.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type Provider from 'oidc-provider';
import { revokeConnectedApp, type ConnectedAppsContext } from '../../../src/adapters/auth-server/connected-apps.js';
import { recordEnding, recordWithdrawal } from '../../../src/adapters/auth-server/revocation-records.js';
import type { LaunchPicks } from '../../../src/adapters/auth-server/smart-launch.js';
import type { SmartLaunchContext } from '../../../src/ports/smart-launch.port.js';

// An issuer of this file's own: the process remembers each withdrawal it recorded for a minute, by issuer and grant.
const ISSUER = `http://${randomUUID()}.invalid`;
const MARTA = '198112189876';

interface Fixture {
  context: ConnectedAppsContext;
  grants: Set<string>;
  /** The source address of each withdrawal stored, in order. */
  recorded: string[];
  /** The next record waits for `release`, and is refused when `refuse` is set then. */
  hold(): { release(refuse?: boolean): void; reached: Promise<void> };
}

function fixture(grantId: string): Fixture {
  const grants = new Set([grantId]);
  const recorded: string[] = [];
  let held: { reached: () => void; wait: Promise<boolean> } | undefined;
  const kept = (id: string) => (grants.has(id) ? { grantId: id, accountId: MARTA, clientId: 'an-app', patientId: MARTA, fhirUser: `Patient/${MARTA}` } : undefined);
  const context = {
    issuer: ISSUER,
    provider: {
      Grant: {
        find: async (id: string) => (grants.has(id) ? { clientId: 'an-app', accountId: MARTA, openid: { scope: 'openid' }, resources: {}, iat: 1 } : undefined),
        adapter: { destroy: async (id: string) => void grants.delete(id) },
      },
      Client: { find: async () => undefined },
      RefreshToken: { revokeByGrantId: async () => undefined }, AuthorizationCode: { revokeByGrantId: async () => undefined }, AccessToken: { revokeByGrantId: async () => undefined },
    },
    picks: {
      kept: async (id: string) => kept(id),
      opening: async (accountId: string) => [...grants].map(kept).filter((k) => k?.accountId === accountId),
      forget: async () => undefined,
    },
    smart: {
      peopleFor: async (accountId: string) => [{ patientId: accountId, name: 'N', basis: 'self' }],
      recordGrant: async (event: { sourceAddress: string }) => {
        const hold = held;
        held = undefined;
        if (hold !== undefined) {
          hold.reached();
          if (await hold.wait) throw new Error('the audit store refused the record');
        }
        recorded.push(event.sourceAddress);
      },
      publicBaseUrl: () => ISSUER,
    },
  } as unknown as ConnectedAppsContext;
  return {
    context, grants, recorded,
    hold() {
      let reached!: () => void;
      let release!: (refuse?: boolean) => void;
      const reachedAt = new Promise<void>((resolve) => { reached = resolve; });
      held = { reached, wait: new Promise<boolean>((resolve) => { release = (refuse = false) => resolve(refuse); }) };
      return { release, reached: reachedAt };
    },
  };
}

/** The app revoking its refresh token (RFC 7009), as provider-config.ts's revocation policy records it. */
const appRevokes = (f: Fixture, grantId: string) => recordWithdrawal(f.context.smart as SmartLaunchContext, f.context.picks as LaunchPicks, {
  issuer: ISSUER, grantId, clientId: 'an-app', scope: 'openid', accountId: MARTA, sourceAddress: 'the app',
});

/** A sign-out (or a replacement, a replay) ending the grant, as grant-endings.ts records it. */
const signOutEnds = (f: Fixture, grantId: string) => recordEnding(f.context.provider as Provider, f.context.smart as SmartLaunchContext,
  { grantId, accountId: MARTA, clientId: 'an-app', patientId: MARTA }, { issuer: ISSUER, sourceAddress: 'the sign-out' });

/** Starts `first`, then `second` while `first`'s record is being stored, and lets that record be stored (or refused) then. */
async function raced<A, B>(f: Fixture, first: () => Promise<A>, second: () => Promise<B>, refuse = false): Promise<[Promise<A>, Promise<B>]> {
  const held = f.hold();
  const one = first();
  await held.reached;
  const two = second();
  held.release(refuse);
  return [one, two];
}

describe('one withdrawal a grant, whichever ends race', () => {
  it('records the page\'s revoke alone when the app revokes its token while it is being recorded', async () => {
    const f = fixture('G-page-first');
    await Promise.all(await raced(f, () => revokeConnectedApp(f.context, MARTA, 'G-page-first', 'the page'), () => appRevokes(f, 'G-page-first')));
    expect([f.recorded, f.grants.has('G-page-first')]).toEqual([['the page'], false]);
  });

  it('records the app\'s revocation alone when the page\'s revoke comes while it is being recorded', async () => {
    const f = fixture('G-app-first');
    const [, revoked] = await Promise.all(await raced(f, () => appRevokes(f, 'G-app-first'), () => revokeConnectedApp(f.context, MARTA, 'G-app-first', 'the page')));
    // The page still ends the grant it found, and says so: the one withdrawal stands for it.
    expect([revoked?.grantId, f.recorded, f.grants.has('G-app-first')]).toEqual(['G-app-first', ['the app'], false]);
  });

  it('records a sign-out\'s end alone when the app revokes its token at the same moment', async () => {
    const f = fixture('G-sign-out');
    await Promise.all(await raced(f, () => signOutEnds(f, 'G-sign-out'), () => appRevokes(f, 'G-sign-out')));
    expect(f.recorded).toEqual(['the sign-out']);
  });

  it('refuses every end waiting on a refused record, and records the next end anew', async () => {
    const f = fixture('G-refused');
    const outcomes = await Promise.allSettled(await raced(f, () => revokeConnectedApp(f.context, MARTA, 'G-refused', 'the page'), () => appRevokes(f, 'G-refused'), true));
    expect([outcomes.map((o) => o.status), f.recorded, f.grants.has('G-refused')]).toEqual([['rejected', 'rejected'], [], true]);
    await revokeConnectedApp(f.context, MARTA, 'G-refused', 'the page again');
    expect([f.recorded, f.grants.has('G-refused')]).toEqual([['the page again'], false]);
  });

  // Hostile review helper-156, F3: a withdrawal recorded for an end that then failed hid the record of the
  // end that came after it within the minute (the page's revoke, from another address, was never recorded).
  it('records a later end anew when the end a record was made for failed', async () => {
    const f = fixture('G-end-failed');
    const destroy = f.context.provider.Grant.adapter.destroy.bind(f.context.provider.Grant.adapter);
    let fail = true;
    f.context.provider.Grant.adapter.destroy = async (id: string) => {
      if (fail) { fail = false; throw new Error('the grant store failed'); }
      return destroy(id);
    };
    await expect(revokeConnectedApp(f.context, MARTA, 'G-end-failed', 'the page')).rejects.toThrow('the grant store failed');
    await appRevokes(f, 'G-end-failed');
    expect(f.recorded).toEqual(['the page', 'the app']);
  });

  it('records the ends of two grants each', async () => {
    const f = fixture('G-one');
    f.grants.add('G-two');
    await Promise.all([appRevokes(f, 'G-one'), appRevokes(f, 'G-two')]);
    expect(f.recorded).toEqual(['the app', 'the app']);
  });
});

/**
 * What `$status` and a stopped subscription's `error` say, by why it stopped (notification-bundle.ts): words a developer can act on,
 * and true of every way the reason comes about.
 */
import { describe, expect, it } from 'vitest';
import { endError } from '../../../src/domain/notifications/notification-bundle.js';

describe('the error of a stopped subscription', () => {
  // Hostile review helper-132 (info), helper-138 (F6): a subscription ended because a new consent's scopes no longer
  // reached its topic, or because its grant ran out, said "The person ended the app's access". `app-revoked` is decided
  // for each (right-to-read.ts).
  it('says the app\'s access was ended, ran out or was narrowed, since each ends it', () => {
    expect(endError('app-revoked')).toEqual({
      code: 'access-denied', text: "The app's access was ended, ran out, or was narrowed so that it no longer reaches this topic: nothing more is told.",
    });
  });

  it('has none for a subscription deleted or past its end, and one for every other reason', () => {
    expect([endError(undefined), endError('deleted'), endError('ended')]).toEqual([undefined, undefined, undefined]);
    for (const reason of ['right-lost', 'app-revoked', 'handshake-failed', 'delivery-failed'] as const) expect(endError(reason)?.text, reason).toMatch(/\.$/);
  });
});

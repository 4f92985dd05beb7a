/**
 * docs/operations.md#the-notifications-schema: version 5 adds the index the delivery claim finds ends left with no
 * due time by, to a schema at version 4 as the build that made version 4 left it (hostile review helper-122, F3:
 * version 4 had been edited in place, so such a schema never got it). Version 6 keeps what became of a feed
 * entry's focus (helper-126, F1); an entry an instance of version 5 keeps reads as created, as it was told then.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { migrateNotifications, NOTIFICATIONS_LATEST_VERSION } from '../../../src/adapters/subscriptions/postgres-subscription-schema.js';
import { adminPool, databaseAvailable } from '../../support/database.js';
import { POSTGRES, type StorePair } from './subscription-stores.js';

const available = await databaseAvailable();

describe.skipIf(!available)('the notifications schema brought from version 4', () => {
  let pair: (StorePair & { schema: string }) | undefined;
  afterEach(async () => {
    await pair?.cleanup();
    pair = undefined;
  });

  it('gets the index of ends left with no due time', async () => {
    pair = await POSTGRES.openWith();
    await pair.a.claimDue(0, 'one', 1000, 1);
    const { schema } = pair;
    const admin = adminPool();
    const indexed = async (): Promise<boolean> => (await admin.query(
      'SELECT 1 FROM pg_indexes WHERE schemaname = $1 AND indexname = $2', [schema, 'subscriptions_ends_left'])).rowCount === 1;
    try {
      expect(NOTIFICATIONS_LATEST_VERSION).toBe(6);
      expect(await indexed()).toBe(true);
      await admin.query(`DROP INDEX "${schema}".subscriptions_ends_left; ALTER TABLE "${schema}".feed_entries DROP COLUMN change;
        DELETE FROM "${schema}".schema_migrations WHERE version >= 5`);
      expect(await migrateNotifications(admin, schema)).toEqual({ from: 4, to: 6 });
      expect(await indexed()).toBe(true);
    } finally {
      await admin.end();
    }
  });

  it('keeps what became of a feed entry\'s focus, and reads one a version 5 instance kept as created', async () => {
    pair = await POSTGRES.openWith();
    const { schema } = pair;
    await pair.a.appendFeed([{ feed: 'proxy', patient: '191212121212', focus: 'Consent/g1', atMs: 1, sourceId: 'new', change: 'updated' }]);
    const admin = adminPool();
    try {
      // An instance of version 5 names no change.
      await admin.query(`INSERT INTO "${schema}".feed_entries (source_id, feed, patient, focus, at) VALUES ('old', 'proxy', '191212121212', 'Consent/g0', now())`);
    } finally {
      await admin.end();
    }
    const kept = await pair.b.feedAfter('191212121212', 'proxy', 0, 9);
    expect(kept.map((e) => [e.sourceId, e.change])).toEqual([['new', 'updated'], ['old', undefined]]);
  });
});

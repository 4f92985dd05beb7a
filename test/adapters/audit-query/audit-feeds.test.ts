/**
 * The audit trail read forward (src/ports/audit-feed.port.ts) over trails the service's own
 * FileAuditTrail and PostgresAuditTrail wrote: from the end as it is when first asked, then every
 * outcome record naming a patient once, in order, whichever trail instance wrote it and whatever the
 * page size, with the service's own request id and the acting person; a position that is not the
 * trail's is told and the feed goes on from the end.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileAuditTrail } from '../../../src/adapters/audit-file/file-audit-trail.js';
import { PostgresAuditTrail } from '../../../src/adapters/audit-postgres/postgres-audit-trail.js';
import { FileAuditFeed } from '../../../src/adapters/audit-query/file-audit-feed.js';
import { PostgresAuditFeed } from '../../../src/adapters/audit-query/postgres-audit-feed.js';
import { AuditFeedUnavailableError, type AuditFeed, type FedRecord } from '../../../src/ports/audit-feed.port.js';
import type { AuditRecord, AuditTrail } from '../../../src/ports/audit-trail.port.js';
import { adminPool, databaseAvailable, databaseUrl, dropSchema, freshSchema, urlVia } from '../../support/database.js';
import { OTHER, T0, trailRecords } from './access-log-records.js';

const available = await databaseAvailable();

interface FeedTrail {
  feed: AuditFeed;
  warnings: string[];
  /** Another instance of the trail (a second process, or the same service after a restart). */
  trail(): Promise<AuditTrail>;
  cleanup(): Promise<void>;
}

const KINDS: { name: string; needsDatabase: boolean; open(): Promise<FeedTrail> }[] = [
  {
    name: 'file', needsDatabase: false,
    open: async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'pdas-audit-feed-'));
      const file = path.join(dir, 'audit-trail.jsonl');
      const warnings: string[] = [];
      let last: AuditTrail | undefined;
      return {
        feed: new FileAuditFeed(file, { onWarning: (m) => warnings.push(m) }), warnings,
        // One at a time, as the service opens its file: the one before is closed first.
        trail: async () => {
          await last?.close();
          return (last = await FileAuditTrail.open(file));
        },
        cleanup: async () => {
          await last?.close();
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'postgresql', needsDatabase: true,
    open: async () => {
      const schema = freshSchema('audit_feed');
      const warnings: string[] = [];
      const trails: AuditTrail[] = [];
      const feed = PostgresAuditFeed.create({ connectionString: databaseUrl(), schema, onWarning: (m) => warnings.push(m) });
      return {
        feed, warnings,
        trail: async () => {
          const t = PostgresAuditTrail.create({ connectionString: databaseUrl(), schema, onWarning: () => undefined });
          trails.push(t);
          return t;
        },
        cleanup: async () => {
          await Promise.all(trails.map((t) => t.close()));
          await feed.close();
          const admin = adminPool();
          await dropSchema(admin, schema);
          await admin.end();
        },
      };
    },
  },
];

/** `n` records as trailRecords makes them, with request ids of their own, an old record without the service's id (an app's), and a count naming nobody. */
function recordsOf(prefix: string, n: number, atMs = T0): AuditRecord[] {
  const made = trailRecords(n).map((r): AuditRecord => ({
    ...r, time: new Date(Date.parse(r.time) - T0 + atMs).toISOString(), requestId: `${prefix}-${r.requestId}`, serviceRequestId: `${prefix}-${r.serviceRequestId ?? ''}`,
  }));
  const time = new Date(atMs + n * 1000).toISOString();
  // Its app named, as the feed gives it (helper-158, F2: an app's refusals are told once a while, by app).
  made.push({ time, requestId: `${prefix}-old`, operation: 'getPatient', patientId: OTHER, outcome: 'allowed', status: 200, sourceAddress: '10.1.2.3', clientId: 'kiosk-1' });
  made.push({ time, requestId: `${prefix}-count`, serviceRequestId: `${prefix}-count`, operation: 'refusalsNotAudited', outcome: 'denied', status: 401, unaudited: 3, sourceAddress: '' });
  return made;
}

/** What the feed must give of `records`: outcome records naming a patient, in order. */
const expectedOf = (records: readonly AuditRecord[]): FedRecord[] => records.flatMap((r) => (r.phase === 'attempt' || r.patientId === undefined ? [] : [{
  timeMs: Date.parse(r.time), requestId: r.serviceRequestId ?? r.requestId, operation: r.operation, outcome: r.outcome, status: r.status,
  patientId: r.patientId, ...(r.actor?.personId === undefined ? {} : { actorPersonId: r.actor.personId }), ...(r.clientId === undefined ? {} : { clientId: r.clientId }),
}]));

/** Appends as the service appends: each trail keeps the order of the calls, the order the feed must give. */
async function appendAll(trail: AuditTrail, records: readonly AuditRecord[]): Promise<void> {
  await Promise.all(records.map((r) => trail.append(r)));
}

/** Every page from `position` on, `limit` at a time, until a page comes back empty; the records and where it ended. */
async function readAll(feed: AuditFeed, position: string, limit: number): Promise<{ records: FedRecord[]; position: string }> {
  const records: FedRecord[] = [];
  for (let pages = 0; pages < 10_000; pages++) {
    const page = await feed.after(position, limit);
    expect(page.records.length).toBeLessThanOrEqual(limit);
    records.push(...page.records);
    if (page.records.length === 0 && page.position === position) return { records, position };
    position = page.position;
  }
  throw new Error('the feed never came to an end');
}

for (const kind of KINDS) {
  describe.skipIf(kind.needsDatabase && !available)(`the ${kind.name} audit feed`, () => {
    let t: FeedTrail | undefined;
    afterEach(async () => {
      await t?.cleanup();
      t = undefined;
    });

    it('starts at the trail\'s end as it is now, then gives what any trail instance writes after, once each, in order, at any page size', async () => {
      t = await kind.open();
      const first = await t.trail();
      await appendAll(first, recordsOf('before', 40));
      const start = await t.feed.after(undefined, 100);
      expect(start.records).toEqual([]);
      expect(await readAll(t.feed, start.position, 100)).toEqual({ records: [], position: start.position });
      const byFirst = recordsOf('first', 90, T0 + 100_000);
      await appendAll(first, byFirst);
      const byOther = recordsOf('other', 90, T0 + 200_000);
      await appendAll(await t.trail(), byOther);
      const expected = expectedOf([...byFirst, ...byOther]);
      expect(expected.length).toBeGreaterThan(150);
      expect(expected.filter((r) => r.requestId === 'first-old')).toHaveLength(1);
      for (const limit of [1, 7, 500]) expect((await readAll(t.feed, start.position, limit)).records).toEqual(expected);
      expect(t.warnings).toEqual([]);
    });

    it('a position the trail never gave is told, and the feed goes on from the end', async () => {
      t = await kind.open();
      const trail = await t.trail();
      await appendAll(trail, recordsOf('a', 12));
      const foreign = kind.name === 'file' ? 'pg:5' : 'file:100:0123456789abcdef';
      const page = await t.feed.after(foreign, 10);
      expect(page.records).toEqual([]);
      expect(t.warnings).toHaveLength(1);
      const later = recordsOf('b', 6, T0 + 50_000);
      await appendAll(trail, later);
      expect((await readAll(t.feed, page.position, 50)).records).toEqual(expectedOf(later));
    });
  });
}

describe.skipIf(!available)('the PostgreSQL audit feed alone', () => {
  it('two trail instances appending at once: each outcome record once; a position past the table (a restored database) goes on from its end', async () => {
    const t = await (KINDS[1] as (typeof KINDS)[number]).open();
    try {
      const [a, b] = [await t.trail(), await t.trail()];
      await appendAll(a, recordsOf('before', 3));
      const start = (await t.feed.after(undefined, 10)).position;
      const one = recordsOf('one', 120);
      const two = recordsOf('two', 120);
      await Promise.all([...one.map((r) => a.append(r)), ...two.map((r) => b.append(r))]);
      const { records, position } = await readAll(t.feed, start, 13);
      const byId = (a: FedRecord, b: FedRecord): number => (a.requestId < b.requestId ? -1 : 1);
      expect([...records].sort(byId)).toEqual(expectedOf([...one, ...two]).sort(byId));
      const past = await t.feed.after(`pg:${Number(position.slice(3)) + 1000}`, 10);
      expect(past).toEqual({ records: [], position });
      expect(t.warnings).toEqual([expect.stringContaining('ends before the audit feed\'s position')]);
    } finally {
      await t.cleanup();
    }
  });

  it('a database that does not answer is AuditFeedUnavailableError', async () => {
    const feed = PostgresAuditFeed.create({ connectionString: urlVia(1), statementTimeoutMs: 500 });
    try {
      await expect(feed.after(undefined, 10)).rejects.toBeInstanceOf(AuditFeedUnavailableError);
      await expect(feed.after('pg:1', 10)).rejects.toBeInstanceOf(AuditFeedUnavailableError);
    } finally {
      await feed.close();
    }
  });
});

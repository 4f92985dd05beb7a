import type { AccessLogReader, AccessLogQuery, GrantOf, GrantParties, StoredAccess } from '../../ports/access-log.port.js';
import type { AccessBasis } from '../access/relationship.js';
import { guardianAgeWithholds } from '../release/guardian-age.js';
import type { Clock } from '../../ports/clock.port.js';
import type { ReleasePolicy } from '../release/release-policy.js';
import type { TimeRange } from '../time/time-range.js';
import type { PageCursors } from '../../ports/page-cursors.port.js';
import { DomainError } from '../errors.js';
import { MAX_PAGE_SIZE } from './page-size.js';
import { compactToEpochMs } from '../time/local-time.js';
import { entryOf, type AccessLogEntry, type ClientNames, type LogViewer } from './access-log-entry.js';

export interface AccessLogRequest {
  /** The patient whose log is read; the caller's right to act for them is already decided. */
  patientId: string;
  /** On what basis the caller reads it: the guardian age limit of the log looks at it. */
  basis: AccessBasis;
  viewer: LogViewer;
  /** Who pages (the person and the app, src/http/log-reader.ts): a cursor is bound to them as to the patient and the interval. */
  caller: string;
  interval: LogInterval;
  limit: number;
  cursor?: string;
}

/** The log's interval in epoch milliseconds, both ends inclusive (an entry's time has no finer unit); absent: open. */
export interface LogInterval {
  fromMs?: number;
  toMs?: number;
}

/** A range of whole local seconds (the COS door's `fromDateTime`/`toDateTime`) as the log's interval: every millisecond of its last second. */
export function intervalOf(range: TimeRange, zone: string): LogInterval {
  return {
    ...(range.from === undefined ? {} : { fromMs: compactToEpochMs(range.from, zone) }),
    ...(range.to === undefined ? {} : { toMs: compactToEpochMs(range.to, zone) + 999 }),
  };
}

export interface AccessLogPage {
  entries: AccessLogEntry[];
  /** The cursor of the next page; absent on the last. */
  next?: string;
  /** How many entries the release policy withheld from this page (docs/contract.md#only-what-may-be-released); never which. */
  withheld: number;
}

export interface AccessLogSettings {
  /** EHR_TIMEZONE: the zone of each entry's local time. */
  zone: string;
  /** Fixes a walk's end when it begins, and tells a guardian's age limit from today. */
  clock: Clock;
  clientNames?: ClientNames;
  policy?: ReleasePolicy | undefined;
  /** The grant store's lookup when sharing is on (docs/proxies.md#audited-and-shown): the log then names each grant's grantee. */
  grantOf?: GrantOf | undefined;
}

export const invalidCursor = (): DomainError => new DomainError('INVALID_PAGE', 'Query parameter cursor is not valid for this query.');

/**
 * The patient's access log, a page at a time, oldest first (docs/contract.md#the-patients-access-log). A cursor is bound to the
 * store, the patient, the interval and the caller, so it cannot be replayed for another patient, query or caller, and
 * carries the walk's end, fixed by its first page; the page size may change from one page to the next. Past the guardian age limit the release policy sets
 * for `getAccessLog`, a guardian (and a client token, for a minor) gets every page empty, with no next,
 * as another read whose whole answer the limit takes, and the log is not read at all (one counted withheld).
 */
export class ReadAccessLog {
  private readonly zone: string;
  private readonly clientNames: ClientNames;

  constructor(
    private readonly reader: AccessLogReader,
    private readonly cursors: PageCursors,
    private readonly settings: AccessLogSettings,
  ) {
    this.zone = settings.zone;
    this.clientNames = settings.clientNames ?? new Map();
  }

  async page(request: AccessLogRequest): Promise<AccessLogPage> {
    if (!Number.isInteger(request.limit) || request.limit < 1 || request.limit > MAX_PAGE_SIZE) {
      throw new DomainError('INVALID_PAGE', `Query parameter limit must be an integer from 1 to ${MAX_PAGE_SIZE}.`);
    }
    const { fromMs, toMs } = request.interval;
    const binding = JSON.stringify([this.reader.store, request.patientId, fromMs ?? '', toMs ?? '', request.caller]);
    // A walk ends where the log stood when it began, whatever the interval asked: each page read is an
    // entry too, and one open towards now met its own.
    const now = this.settings.clock.now();
    let untilMs = toMs === undefined ? now : Math.min(now, toMs);
    const query: AccessLogQuery = { patientId: request.patientId, limit: request.limit + 1 };
    if (fromMs !== undefined) query.fromMs = fromMs;
    if (request.cursor !== undefined) {
      const walk = this.cursors.open(request.cursor, binding);
      if (walk === undefined) throw invalidCursor();
      query.after = walk.after;
      untilMs = walk.untilMs ?? untilMs;
    }
    query.toMs = untilMs;
    // Past the limit nothing is read, and one is counted as withheld, whatever the interval: a mark, a count or
    // a time that followed what it held would tell the one the limit keeps out when the record was read.
    if (this.withholdsAll(request)) return { entries: [], withheld: 1 };
    const found = await this.reader.page(query);
    const shown = found.slice(0, request.limit);
    const grants = await this.grantsOf(shown);
    const entries = shown.map((f) => entryOf(f.access, request.patientId, request.viewer, this.zone, this.clientNames,
      f.access.proxyGrantId === undefined ? undefined : grants.get(f.access.proxyGrantId)));
    const last = shown.at(-1);
    return found.length > request.limit && last !== undefined
      ? { entries, next: this.cursors.seal({ after: last.position, untilMs }, binding), withheld: 0 }
      : { entries, withheld: 0 };
  }

  /** The grants a page names, each looked up once: a page of sharing names one grant many times. */
  private async grantsOf(shown: readonly StoredAccess[]): Promise<ReadonlyMap<string, GrantParties>> {
    const grants = new Map<string, GrantParties>();
    const grantOf = this.settings.grantOf;
    if (grantOf === undefined) return grants;
    const ids = new Set(shown.flatMap((f) => (f.access.proxyGrantId === undefined ? [] : [f.access.proxyGrantId])));
    await Promise.all([...ids].map(async (id) => {
      const grant = await grantOf(id);
      if (grant !== undefined) grants.set(id, grant);
    }));
    return grants;
  }

  private withholdsAll({ basis, patientId }: AccessLogRequest): boolean {
    const { policy, clock } = this.settings;
    if (policy === undefined) return false;
    return guardianAgeWithholds(policy, 'getAccessLog', basis, patientId, clock.now(), this.zone);
  }
}

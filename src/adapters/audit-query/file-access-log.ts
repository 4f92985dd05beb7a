import { open } from 'node:fs/promises';
import { isAlsoRead } from '../../domain/access-log/also-read.js';
import { isWriteResultForm } from '../../ports/audit-trail.port.js';
import { AccessLogUnavailableError, type AccessLogQuery, type AccessLogReader, type LoggedAccess, type StoredAccess } from '../../ports/access-log.port.js';
import { linesHolding, offsetNear, patientNeedles } from './trail-lines.js';

/**
 * How far the trail's order may stray from time order: lines are written in the order their times
 * were taken, so only a step of the system clock makes them stray. A page starts this much before
 * `fromDateTime` and stops only this much past `toDateTime`.
 */
const CLOCK_STEP_MS = 10 * 60_000;
const OUTCOMES = new Set(['allowed', 'denied', 'failed']);

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The log's fields of one parsed trail line about `patientId`; undefined for an attempt record or anything else. */
function accessOf(line: Record<string, unknown>, patientId: string): LoggedAccess | undefined {
  const { time, requestId, operation, outcome, status, phase } = line;
  if (line.patientId !== patientId || phase !== undefined) return undefined;
  if (typeof time !== 'string' || typeof requestId !== 'string' || typeof operation !== 'string'
    || typeof outcome !== 'string' || !OUTCOMES.has(outcome) || typeof status !== 'number') return undefined;
  const timeMs = Date.parse(time);
  if (Number.isNaN(timeMs)) return undefined;
  // The service's own id; an older record's `requestId` may be a caller's (src/ports/access-log.port.ts).
  const access: LoggedAccess = { timeMs, requestId: text(line.serviceRequestId) ?? requestId, operation, outcome: outcome as LoggedAccess['outcome'], status };
  const personId = text((line.actor as { personId?: unknown } | undefined)?.personId);
  if (personId !== undefined) access.actorPersonId = personId;
  for (const key of ['clientId', 'subscription', 'delegation', 'proxyGrantId', 'reason'] as const) {
    const v = text(line[key]);
    if (v !== undefined) access[key] = v;
  }
  if (isAlsoRead(line.alsoRead)) access.alsoRead = line.alsoRead;
  if (isWriteResultForm(line.writeResult)) access.writeResult = line.writeResult;
  return access;
}

/**
 * The access log from the embedded JSON-lines trail. A page is read forward from where the last one
 * ended (a byte offset, sealed in the cursor) or from near `fromDateTime` (found by bisection), a
 * 64 KiB buffer at a time, decoding only lines that name the patient; the file is never read whole.
 * Entries come in the order written, which is time order. Suits one instance and a modest trail:
 * a patient with few entries in a long trail costs a scan of the rest of it; PostgreSQL serves
 * each page from an index.
 */
export class FileAccessLog implements AccessLogReader {
  readonly store = 'file';

  constructor(private readonly file: string, private readonly onWarning: (msg: string) => void = () => undefined) {}

  async page(query: AccessLogQuery): Promise<StoredAccess[]> {
    let handle;
    try {
      handle = await open(this.file, 'r');
    } catch (err) {
      throw new AccessLogUnavailableError(`audit trail cannot be opened: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    try {
      return await this.scan(handle, query);
    } finally {
      await handle.close();
    }
  }

  private async scan(handle: Awaited<ReturnType<typeof open>>, q: AccessLogQuery): Promise<StoredAccess[]> {
    const { size } = await handle.stat();
    const start = q.after !== undefined ? Number(q.after.id)
      : q.fromMs !== undefined ? await offsetNear(handle, size, q.fromMs - CLOCK_STEP_MS) : 0;
    const stopAfter = q.toMs === undefined ? Number.POSITIVE_INFINITY : q.toMs + CLOCK_STEP_MS;
    const found: StoredAccess[] = [];
    // accessOf compares what it parses.
    for await (const line of linesHolding(handle, start, patientNeedles(q.patientId), (ms) => !(ms > stopAfter))) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line.text);
      } catch {
        this.onWarning(`an unreadable line of the audit trail ends at byte ${line.end}; left out of the access log`);
        continue;
      }
      const access = typeof parsed === 'object' && parsed !== null ? accessOf(parsed as Record<string, unknown>, q.patientId) : undefined;
      if (access === undefined) continue;
      const ms = access.timeMs;
      if (ms > stopAfter) break;
      if ((q.fromMs !== undefined && ms < q.fromMs) || (q.toMs !== undefined && ms > q.toMs)) continue;
      found.push({ position: { timeMs: ms, id: String(line.end) }, access });
      if (found.length >= q.limit) break;
    }
    return found;
  }

  async close(): Promise<void> {}
}

/**
 * The embedded JSON-lines audit trail read forward (src/ports/audit-feed.port.ts): from a byte offset,
 * 64 KiB at a time, at most `maxBytesPerCall` a call, never the whole file. Only whole lines are read:
 * a last line still being written (no newline yet) is left for the next call. A position is the
 * offset and a digest of the bytes just before it, so a trail cut shorter than the offset, or replaced
 * by another file (rotated, restored), is noticed even once it has grown past it: the feed then goes
 * on from the trail's end and says so through `onWarning`.
 */
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { AuditFeedUnavailableError, type AuditFeed, type FedRecord, type FeedPage } from '../../ports/audit-feed.port.js';
import { ESCAPE } from './trail-lines.js';

export interface FileAuditFeedOptions {
  onWarning?: (msg: string) => void;
  /** The most bytes one call reads past its position, but for finishing the line under way at the bound. Default 2 MiB. */
  maxBytesPerCall?: number;
}

const NEWLINE = 0x0a;
const CHUNK = 64 * 1024;
/** A line longer than this is no audit record (they are well under 4 KiB): skipped unread. */
const MAX_LINE = 1024 * 1024;
/** How many bytes before an offset its digest covers: the end of the last line read, its chain hash included. */
const TAG_BYTES = 64;
const POSITION = /^file:(\d{1,15}):([0-9a-f]{16})?$/;
const OUTCOMES = new Set(['allowed', 'denied', 'failed']);
/** The key of a record naming a patient, however the line is spaced; spelled otherwise, the line holds an escape (ESCAPE). */
const NAMES_A_PATIENT = Buffer.from('"patientId"');

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The feed's fields of one parsed trail line; undefined for an attempt record, a note, or a record naming nobody. */
function fedRecordOf(line: Record<string, unknown>): FedRecord | undefined {
  const { time, operation, outcome, status, phase, patientId } = line;
  if (phase !== undefined || typeof patientId !== 'string' || typeof time !== 'string' || typeof operation !== 'string'
    || typeof outcome !== 'string' || !OUTCOMES.has(outcome) || typeof status !== 'number') return undefined;
  // The service's own id; an older record's `requestId` may be a caller's (src/ports/audit-trail.port.ts).
  const requestId = text(line.serviceRequestId) ?? text(line.requestId);
  const timeMs = Date.parse(time);
  if (requestId === undefined || Number.isNaN(timeMs)) return undefined;
  const actorPersonId = text((line.actor as { personId?: unknown } | undefined)?.personId);
  const clientId = text(line.clientId);
  return {
    timeMs, requestId, operation, outcome: outcome as FedRecord['outcome'], status, patientId,
    ...(actorPersonId === undefined ? {} : { actorPersonId }), ...(clientId === undefined ? {} : { clientId }),
  };
}

export class FileAuditFeed implements AuditFeed {
  private readonly onWarning: (msg: string) => void;
  private readonly maxBytes: number;

  constructor(private readonly file: string, options: FileAuditFeedOptions = {}) {
    this.onWarning = options.onWarning ?? (() => undefined);
    this.maxBytes = options.maxBytesPerCall ?? 2 * 1024 * 1024;
  }

  async after(position: string | undefined, limit: number): Promise<FeedPage> {
    let handle: FileHandle | undefined;
    try {
      handle = await open(this.file, 'r');
    } catch (err) {
      // No trail yet: nothing was written, and everything written from now on is after this position.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], position: 'file:0:' };
      throw new AuditFeedUnavailableError(`the audit trail cannot be opened: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    try {
      return await this.page(handle, position, limit);
    } catch (err) {
      throw new AuditFeedUnavailableError(`the audit trail cannot be read forward: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
    } finally {
      await handle.close();
    }
  }

  private async page(handle: FileHandle, position: string | undefined, limit: number): Promise<FeedPage> {
    const { size } = await handle.stat();
    if (position === undefined) return { records: [], position: await positionAt(handle, await lastLineEnd(handle, size)) };
    const parsed = POSITION.exec(position);
    const offset = Number(parsed?.[1] ?? Number.NaN);
    if (parsed === null) {
      this.onWarning('the audit feed\'s position is not one this trail gave: it goes on from the trail\'s end');
    } else if (offset > size) {
      this.onWarning(`the audit trail is shorter than the feed's position (${size} < ${offset} bytes): the feed goes on from its end, and entries written in between are not told`);
    } else if (await tagAt(handle, offset) !== (parsed[2] ?? '')) {
      this.onWarning('the audit trail before the feed\'s position is not the one the feed read: it is another file now (rotated or restored), '
        + 'or its lines were changed; the feed goes on from its end, and entries written in between are not told');
    } else {
      return this.readFrom(handle, offset, limit);
    }
    return { records: [], position: await positionAt(handle, await lastLineEnd(handle, size)) };
  }

  /**
   * Whole lines from `offset`, until `limit` records or `maxBytes` read; the position is past the last
   * whole line read. A line too long to be a record is read past without being kept, even beyond
   * `maxBytes`; one still unfinished at the end of the trail is where the next call starts.
   */
  private async readFrom(handle: FileHandle, offset: number, limit: number): Promise<FeedPage> {
    const records: FedRecord[] = [];
    const chunk = Buffer.alloc(CHUNK);
    let lineStart = offset;
    let readTo = offset;
    let pending = Buffer.alloc(0);
    let skipping = false;
    for (;;) {
      // Past the bound a read only finishes the line under way.
      const finishing = readTo - offset >= this.maxBytes;
      if (finishing && pending.length === 0 && !skipping) break;
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, readTo);
      if (bytesRead === 0) break;
      // `data` starts at the line being read, or, while one is skipped, at what was just read.
      const base = skipping ? readTo : lineStart;
      readTo += bytesRead;
      const data = pending.length === 0 ? chunk.subarray(0, bytesRead) : Buffer.concat([pending, chunk.subarray(0, bytesRead)]);
      let at = 0;
      for (let nl = data.indexOf(NEWLINE); nl >= 0; nl = data.indexOf(NEWLINE, at)) {
        const record = skipping ? undefined : this.lineRecord(data.subarray(at, nl), lineStart);
        skipping = false;
        at = nl + 1;
        lineStart = base + at;
        if (record !== undefined) records.push(record);
        if (records.length >= limit || finishing) return { records, position: await positionAt(handle, lineStart) };
      }
      pending = skipping ? pending : Buffer.from(data.subarray(at));
      if (pending.length > MAX_LINE) {
        this.onWarning(`a line of the audit trail longer than ${MAX_LINE} bytes starts at byte ${lineStart}; skipped`);
        skipping = true;
        pending = Buffer.alloc(0);
      }
    }
    return { records, position: await positionAt(handle, lineStart) };
  }

  private lineRecord(line: Buffer, start: number): FedRecord | undefined {
    if (line.indexOf(NAMES_A_PATIENT) < 0 && line.indexOf(ESCAPE) < 0) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line.toString('utf8'));
    } catch {
      this.onWarning(`an unreadable line of the audit trail starts at byte ${start}; left out of the feed`);
      return undefined;
    }
    return typeof parsed === 'object' && parsed !== null ? fedRecordOf(parsed as Record<string, unknown>) : undefined;
  }
}

/** The end of the trail's last whole line, looked for at most MAX_LINE back (a longer torn tail: its length, to start past it). */
async function lastLineEnd(handle: FileHandle, size: number): Promise<number> {
  const chunk = Buffer.alloc(CHUNK);
  for (let end = size; end > 0 && size - end < MAX_LINE;) {
    const from = Math.max(0, end - CHUNK);
    const { bytesRead } = await handle.read(chunk, 0, end - from, from);
    const nl = chunk.subarray(0, bytesRead).lastIndexOf(NEWLINE);
    if (nl >= 0) return from + nl + 1;
    end = from;
  }
  return size <= MAX_LINE ? 0 : size;
}

/** A digest of the bytes just before `offset`, which must end a line; '' at 0, and '-' where no line ends there. */
async function tagAt(handle: FileHandle, offset: number): Promise<string> {
  if (offset === 0) return '';
  const from = Math.max(0, offset - TAG_BYTES);
  const bytes = Buffer.alloc(offset - from);
  const { bytesRead } = await handle.read(bytes, 0, bytes.length, from);
  if (bytesRead !== bytes.length || bytes[bytes.length - 1] !== NEWLINE) return '-';
  return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

const positionAt = async (handle: FileHandle, offset: number): Promise<string> => `file:${offset}:${await tagAt(handle, offset)}`;

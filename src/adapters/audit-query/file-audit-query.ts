import { access, open, type FileHandle } from 'node:fs/promises';
import { isAlsoRead } from '../../domain/access-log/also-read.js';
import { isContactId } from '../../domain/writes/contact-id.js';
import { isPaymentType, type AuditRecord } from '../../ports/audit-trail.port.js';
import { checkFileChain } from '../audit-file/chain-check.js';
import { accessesIn, OUTCOME_WITHIN_MS } from './accesses.js';
import { AuditTrailMissingError, type AuditQuery } from './audit-query.js';
import type { ChainCheck, ChainCheckOptions } from './chain-check.js';
import { linesUpTo, mayNamePatient } from './trail-lines.js';

type Line = Partial<Record<keyof AuditRecord | 'writeResult' | 'alsoRead' | 'contactId' | 'paymentType', unknown>>;

const OUTCOMES = new Set(['allowed', 'denied', 'failed']);
const optional = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The port's fields of one parsed line (the chain's `prev` and `hash` left behind), or undefined if it is not a record. */
function recordOf(line: Line): AuditRecord | undefined {
  const { time, requestId, operation, sourceAddress, outcome, status, actor, phase } = line;
  if (typeof time !== 'string' || typeof requestId !== 'string' || typeof operation !== 'string') return undefined;
  const common = { time, requestId, operation, sourceAddress: optional(sourceAddress) ?? '' };
  let record: AuditRecord;
  if (phase === 'attempt' && outcome === 'allowed' && status === undefined) {
    record = { ...common, phase, outcome };
  } else if (phase === undefined && typeof outcome === 'string' && OUTCOMES.has(outcome) && typeof status === 'number') {
    record = {
      ...common, outcome: outcome as 'allowed' | 'denied' | 'failed', status,
      ...(typeof line.writeResult === 'string' ? { writeResult: line.writeResult } : {}), ...(isAlsoRead(line.alsoRead) ? { alsoRead: line.alsoRead } : {}),
      ...(isContactId(line.contactId) ? { contactId: line.contactId } : {}), ...(isPaymentType(line.paymentType) ? { paymentType: line.paymentType } : {}),
    };
  } else {
    return undefined;
  }
  const a = actor as { issuer?: unknown; subject?: unknown; personId?: unknown } | undefined;
  if (a && typeof a.issuer === 'string' && typeof a.subject === 'string') {
    record.actor = { issuer: a.issuer, subject: a.subject, ...(typeof a.personId === 'string' ? { personId: a.personId } : {}) };
  }
  for (const key of ['serviceRequestId', 'callerRequestId', 'clientId', 'subscription', 'patientId', 'delegation', 'proxyGrantId', 'reason'] as const) {
    const v = optional(line[key]);
    if (v !== undefined) record[key] = v;
  }
  return record;
}

/**
 * Reads the embedded JSON-lines trail as a stream, one line at a time, so a trail of any size is
 * searched in constant memory. A line that is not a record (say, torn by a crash mid-write) is
 * reported through `onWarning` with its number and skipped, never silently.
 */
export class FileAuditQuery implements AuditQuery {
  constructor(private readonly file: string, private readonly onWarning: (msg: string) => void) {}

  async accessesTo(patientId: string, from: Date, to: Date): Promise<AuditRecord[]> {
    await this.present();
    const until = to.getTime() + OUTCOME_WITHIN_MS;
    const handle = await open(this.file, 'r');
    try {
      return accessesIn(await this.matching(handle, patientId, from, until), from, to);
    } finally {
      await handle.close();
    }
  }

  /** The records of `patientId` from `from` until `until`, in the trail's order, its lines split as the writer splits them (linesUpTo). */
  private async matching(handle: FileHandle, patientId: string, from: Date, until: number): Promise<AuditRecord[]> {
    const found: AuditRecord[] = [];
    let number = 0;
    for await (const text of linesUpTo(handle, (await handle.stat()).size)) {
      number += 1;
      if (text.trim() === '') continue;
      // Most lines are about other patients: skip them before paying for JSON.parse, unless the
      // line is visibly torn, which must be reported whoever it was about.
      const whole = text.trimEnd().endsWith('}');
      // recordOf compares what it parses.
      if (whole && !mayNamePatient(text, patientId)) continue;
      let record: AuditRecord | undefined;
      try {
        record = whole ? recordOf(JSON.parse(text) as Line) : undefined;
      } catch {
        record = undefined;
      }
      if (!record) {
        this.onWarning(`line ${number} of the audit trail is not a readable record; skipped`);
        continue;
      }
      const ms = Date.parse(record.time);
      if (record.patientId === patientId && ms >= from.getTime() && ms <= until) found.push(record);
    }
    // Lines are in append order, which concurrent requests can interleave; accessesIn keeps it for ties.
    return found;
  }

  async chain(options?: ChainCheckOptions): Promise<ChainCheck> {
    await this.present();
    return checkFileChain(this.file, options);
  }

  async close(): Promise<void> {}

  private async present(): Promise<void> {
    try {
      await access(this.file);
    } catch {
      throw new AuditTrailMissingError(`no audit trail at ${this.file}`);
    }
  }
}

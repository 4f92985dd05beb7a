import { constants, fstatSync } from 'node:fs';
import { mkdir, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { isAlsoRead } from '../../domain/access-log/also-read.js';
import { isAuditReason, type AuditRecord, type AuditTrail } from '../../ports/audit-trail.port.js';
import { macHex, unkeyedHex, type ChainKey } from '../audit-chain/chain-keys.js';
import type { ChainHeadSource } from '../audit-chain/head-signer.js';
import { ChainWalk, type ChainPoint } from '../audit-query/chain-check.js';
import { timeOfRecordText } from '../audit-query/trail-lines.js';
import { GENESIS, lineLink } from './chain-check.js';
import { fileChainTail } from './chain-tail.js';
import { countLines } from './line-count.js';
import { repairTrailEnd, type TrailEnd } from './torn-tail.js';

interface Pending {
  /** The record's JSON without its closing brace; chained when its batch is written. */
  body: string;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export interface FileAuditTrailOptions {
  /**
   * Group commit: how long a busy trail waits for more records before its next durable write, as
   * PostgreSQL's commit_delay does. A trail that wrote within the last BUSY_WITHIN_MS is busy; an
   * idle one writes at once, so a lone request never waits for it.
   */
  commitDelayMs?: number;
  /** Monotonic milliseconds (tests). */
  now?: () => number;
  /** Opens the trail for appending (tests put a failing disk behind it). */
  open?: typeof open;
  /** Told when opening found and set aside a torn tail. */
  onWarning?: (msg: string) => void;
  /**
   * The chain key (AUDIT_CHAIN_KEY_FILE): each line then carries its id and an HMAC-SHA-256 under it.
   * Without one, lines are chained with SHA-256 as before the chain had a key (tests of that form).
   */
  key?: ChainKey;
  /**
   * Opened beside the running service (a support command): an end in part of a line is the service's
   * write under way, waited for and never cut off as a torn tail (the review of 2026-11-29 saw a support
   * command cut off a record the service had already answered on). Still torn after BESIDE_WAIT_MS, the
   * open fails; the service's own restart sets a torn end aside.
   */
  beside?: boolean;
}

const NEWLINE = 0x0a;
const BESIDE_WAIT_MS = 2_000;
const BESIDE_LOOK_MS = 50;

/** The trail's end once it is whole (opened beside the service, which may be writing it); never cut. */
async function wholeEndOf(file: string): Promise<TrailEnd> {
  for (const until = Date.now() + BESIDE_WAIT_MS; ;) {
    const end = await fileChainTail(file);
    if (end === undefined) return { lastHash: undefined, size: 0 };
    if (end.intactBytes === end.size) return { lastHash: end.lastHash, size: end.size };
    if (Date.now() > until) {
      throw new Error(`the audit trail ${file} ends in part of a line: the service may be writing it, or stopped in the middle of a write. Try again; if this stays, restart the service, which sets the part aside`);
    }
    await new Promise((resolve) => setTimeout(resolve, BESIDE_LOOK_MS));
  }
}

// At 3,500 req/s one durable write per ~2 records cost ~55 µs of kernel time per request; waiting
// 1 ms while busy lets a write carry several, for at most ~1 ms more before a busy request's answer.
const DEFAULT_COMMIT_DELAY_MS = 1;
const BUSY_WITHIN_MS = 10;
// O_DSYNC: a write returns once its bytes are on disk, so a batch costs one call to the thread pool, not a write and an fdatasync.
const APPEND_DURABLY = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_DSYNC;

/**
 * The embedded audit trail: one JSON line per record in an append-only file, each line carrying
 * the hash of the one before and its own MAC under the chain key (so an edited line is detectable,
 * and a rewritten tail cannot be made to chain again without the key), synced to disk before the caller
 * is answered. Appends made while a write is in flight, or within the commit delay of a busy
 * trail, share the next durable write (group commit). The chain head and the file's length move
 * only after a write is on disk; a write that fails is cut off again, so the next one chains onto
 * the last stored line.
 */
export class FileAuditTrail implements AuditTrail, ChainHeadSource {
  private handle: FileHandle | undefined;
  private lastHash = GENESIS;
  private lastTime: string | undefined;
  /** Length of the file up to its last stored line. */
  private size = 0;
  /** The file's length when opened (its lines are counted when a head is first asked for), and the lines written since. */
  private openedSize = 0;
  private linesAtOpen: Promise<number> | undefined;
  private linesWritten = 0;
  private file = '';
  /** A failed write may have left part of itself behind, to be cut off before the next one. */
  private tornSince = false;
  /** What the torn write tried to write: only a prefix of it is ever cut off (cutTornWrite). */
  private tornBytes: Buffer | undefined;
  /** The last batch was refused: another process left the file's end in a state no record can follow. */
  private refused = false;
  private queue: Pending[] = [];
  private flushing: Promise<void> | undefined;
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private writes = 0;
  private readonly commitDelayMs: number;
  private readonly now: () => number;
  private readonly key: ChainKey | undefined;
  /** `,"key":"<id>"`, or nothing without a key: what goes between a record and its `prev`. */
  private readonly keyField: string;

  private constructor(options: FileAuditTrailOptions) {
    this.commitDelayMs = options.commitDelayMs ?? DEFAULT_COMMIT_DELAY_MS;
    this.now = options.now ?? (() => performance.now());
    this.key = options.key;
    this.keyField = options.key === undefined ? '' : `,"key":${JSON.stringify(options.key.id)}`;
  }

  /** Opens (or creates) the trail; a torn tail left by a crash or a full disk is set aside, recorded in the chain and reported. */
  static async open(file: string, options: FileAuditTrailOptions = {}): Promise<FileAuditTrail> {
    const trail = new FileAuditTrail(options);
    await mkdir(path.dirname(file), { recursive: true });
    const end = options.beside === true ? await wholeEndOf(file) : await repairTrailEnd(file);
    trail.lastHash = end.lastHash ?? GENESIS;
    trail.size = end.size;
    trail.openedSize = end.size;
    trail.file = file;
    trail.handle = await (options.open ?? open)(file, APPEND_DURABLY, 0o600);
    if (end.tornTail) {
      const { bytes, setAsideIn } = end.tornTail;
      // The repair is itself part of the chain, so a verifier sees where and why the trail was cut.
      const note = { time: new Date().toISOString(), event: 'torn-tail-set-aside', bytes, setAsideIn };
      await trail.write([JSON.stringify(note).slice(0, -1)]);
      options.onWarning?.(`the audit trail ended in a torn write of ${bytes} bytes; they were moved to ${setAsideIn} and the trail goes on from its last whole record`);
    }
    return trail;
  }

  append(record: AuditRecord): Promise<void> {
    if (!this.handle) return Promise.reject(new Error('audit trail closed'));
    // Refused alone, as the PostgreSQL trail refuses it: a reason is text a person typed.
    if (record.reason !== undefined && !isAuditReason(record.reason)) return Promise.reject(new TypeError('audit record field reason cannot be stored'));
    if (record.phase === undefined && record.alsoRead !== undefined && !isAlsoRead(record.alsoRead)) {
      return Promise.reject(new TypeError('audit record field alsoRead cannot be stored'));
    }
    // The text of JSON.stringify({ ...record, prev }), built without that spread copy: V8 placed those
    // copies in the old generation (+1.2 MB/s there at 3,500 req/s, a full collection twice as often).
    const body = JSON.stringify(record).slice(0, -1);
    return new Promise((resolve, reject) => {
      this.queue.push({ body, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  /**
   * The newest line this trail stored: its number, hash and time (a signed head's subject). The lines
   * before this process are counted once, on the first call, not at start.
   */
  async head(): Promise<ChainPoint> {
    this.linesAtOpen ??= countLines(this.file, this.openedSize);
    const id = await this.linesAtOpen + this.linesWritten;
    return { id, hash: this.lastHash, ...(this.lastTime === undefined ? {} : { time: this.lastTime }) };
  }

  /** Durable writes so far (one per batch of records). */
  get durableWrites(): number {
    return this.writes;
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      if (this.commitDelayMs > 0 && this.now() - this.lastWriteAt < BUSY_WITHIN_MS) {
        await new Promise((resolve) => setTimeout(resolve, this.commitDelayMs));
      }
      const batch = this.queue;
      this.queue = [];
      try {
        await this.write(batch.map((p) => p.body));
        for (const p of batch) p.resolve();
      } catch (err) {
        for (const p of batch) p.reject(err);
      }
    }
    this.flushing = undefined;
  }

  /** Chains `bodies` onto the stored head and writes them in one durable write; the head moves only once they are on disk. */
  private async write(bodies: readonly string[]): Promise<void> {
    await this.cutTornWrite();
    try {
      await this.adoptOtherWriters();
    } catch (err) {
      this.refused = true;
      throw err;
    }
    let head = this.lastHash;
    let text = '';
    for (const body of bodies) {
      const chained = `${body}${this.keyField},"prev":"${head}"}`;
      head = this.key === undefined ? unkeyedHex(chained) : macHex(this.key, chained);
      text += `${chained.slice(0, -1)},"hash":"${head}"}\n`;
    }
    const bytes = Buffer.from(text);
    this.lastWriteAt = this.now();
    this.writes++;
    this.tornSince = true;
    this.tornBytes = bytes;
    try {
      for (let offset = 0; offset < bytes.length;) {
        if (!this.handle) throw new Error('audit trail closed');
        const { bytesWritten } = await this.handle.write(bytes, offset);
        offset += bytesWritten;
      }
    } catch (err) {
      this.refused = true;
      await this.cutTornWrite().catch(() => undefined);
      throw err;
    }
    this.tornSince = false;
    this.tornBytes = undefined;
    this.refused = false;
    this.size += bytes.length;
    this.lastHash = head;
    this.linesWritten += bodies.length;
    this.lastTime = timeOfRecordText(bodies.at(-1) ?? '') ?? this.lastTime;
  }

  /**
   * Lines another process appended since this trail last wrote (a support command, `npm run proxies`,
   * writes its records while the service runs) are chained onto, as a restart would chain onto them:
   * two writers that take turns keep one unbroken chain. One `fstat` a batch, on this thread, not a
   * thread-pool round trip (issue 56 item 4); only a file that changed is read, at its real end, so a
   * write of another's that landed between ours and our `fstat` is found too. A trail cut short, or
   * ending in part of a line (another's write under way, or torn), takes no batch: that batch's requests
   * fail closed, the next batch looks again, and `ping` says the trail is down until one is written.
   * Two writers at the same moment can still break the chain, which the verifier shows: one service
   * process per DATA_DIR, or the audit trail in PostgreSQL (docs/operations.md#the-audit-store).
   */
  private async adoptOtherWriters(): Promise<void> {
    if (!this.handle) throw new Error('audit trail closed');
    const size = fstatSync(this.handle.fd).size;
    if (size === this.size) return;
    const whose = `the audit trail ${this.file} was changed by another process`;
    if (size < this.size) throw new Error(`${whose}: it is shorter than this process wrote it; restart to go on from its last whole record`);
    const end = await fileChainTail(this.file, size);
    if (end === undefined) throw new Error(`${whose}: it is gone; restart to begin it again`);
    if (end.intactBytes !== size || end.lastHash === undefined) throw new Error(`${whose}: it ends in part of a line; the next write looks again, and a restart sets the part aside`);
    this.lastHash = end.lastHash;
    this.size = size;
    // Its lines are counted again from the file when a head is next asked for.
    this.openedSize = size;
    this.linesAtOpen = undefined;
    this.linesWritten = 0;
    this.lastTime = undefined;
  }

  /** Cuts off what a failed write left behind; until that succeeds, nothing more is written. */
  private async cutTornWrite(): Promise<void> {
    if (!this.tornSince) return;
    if (!this.handle) throw new Error('audit trail closed');
    // Only bytes of the torn write itself are cut: what another process appended after this trail's end
    // (a support command's records, already answered on) stays, and the next write chains after it.
    const cutAt = await this.ownTornStart();
    if (cutAt !== undefined) {
      await this.handle.truncate(cutAt);
      await this.handle.datasync();
    }
    this.tornSince = false;
    this.tornBytes = undefined;
  }

  /**
   * Where the torn write's own bytes begin at the file's end, or undefined when none of them is there to
   * cut. They are a prefix of what it tried to write, begun at this trail's end or, when another process
   * appended first, right after one of its lines: only bytes equal to that prefix are ever cut.
   */
  private async ownTornStart(): Promise<number | undefined> {
    if (!this.handle) throw new Error('audit trail closed');
    const size = fstatSync(this.handle.fd).size;
    const own = this.tornBytes;
    if (own === undefined || size <= this.size) return undefined;
    const window = Math.min(size - this.size, own.length);
    const from = size - window;
    const end = Buffer.alloc(window);
    const reader = await open(this.file, 'r');
    try {
      await reader.read(end, 0, window, from);
    } finally {
      await reader.close();
    }
    // Where the write may have begun: this trail's end, if it is within reach, and right after each line end.
    const starts = from === this.size ? [0] : [];
    for (let line = end.indexOf(NEWLINE); line >= 0 && line + 1 < window; line = end.indexOf(NEWLINE, line + 1)) starts.push(line + 1);
    const at = starts.find((start) => end.subarray(start).equals(own.subarray(0, window - start)));
    return at === undefined ? undefined : from + at;
  }

  /**
   * Down while the last batch was refused (a failed write, or a file's end another process left in a
   * state no record can follow), looked at again on each ask: a trail taken out of rotation for it gets
   * no request to write a batch with, so readiness must see the end come right by itself.
   */
  async ping(): Promise<boolean> {
    if (this.handle === undefined) return false;
    if (!this.refused) return true;
    // A batch under way looks at the file itself, and says.
    if (this.flushing !== undefined) return false;
    try {
      await this.cutTornWrite();
      await this.adoptOtherWriters();
      this.refused = false;
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.flushing;
    await this.handle?.close();
    this.handle = undefined;
  }

  /** Recomputes the chain; returns the 1-based number of the first line that does not match, or 0 (checkFileChain over lines at hand). */
  static verifyChain(lines: readonly string[], keys?: ReadonlyMap<string, ChainKey>): number {
    const walk = new ChainWalk('line', GENESIS);
    for (const [i, line] of lines.entries()) {
      if (walk.take(lineLink(line, i + 1, keys)) !== undefined) break;
    }
    return walk.result().broken?.id ?? 0;
  }
}

import { Readable } from 'node:stream';
import { constants, createDeflateRaw, createInflateRaw, type DeflateRaw, type InflateRaw } from 'node:zlib';

/** Pieces other answers hold too (remembered JSON, sliced-json.ts): packing an answer frees none of them. */
const sharedPieces = new WeakSet<Buffer>();

/** Marks `piece` as one that other answers hold too. */
export function markShared(piece: Buffer): void {
  sharedPieces.add(piece);
}

/**
 * `text` as UTF-8 bytes that answers share for as long as they are remembered: outside Node's shared
 * pool, so a remembered piece never keeps a pool slab alive, and marked shared.
 */
export function sharedBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  markShared(bytes);
  return bytes;
}

/**
 * The most a push hands on: the socket counts a write as taken only once all of it has left the
 * process (src/http/send-deadline.ts), so one record of megabytes, written whole, showed nothing
 * taken until its caller had read nearly all of it, and was cut at the grace however fast it read.
 */
export const PUSH_MAX_BYTES = 64 * 1024;

/** A stalled answer is packed once this much of it, not shared with other answers, is still unsent. */
export const PACK_MIN_BYTES = 1024 * 1024;
/** How long an answer must have been stalled (nothing read of it) before it is packed. */
export const STALL_MS = 1000;

/**
 * Streams a large answer's pieces as they are (a byte stream keeps pushed buffers without copying
 * them), a long one in slices of PUSH_MAX_BYTES (copies of its own, views of a shared one),
 * letting go of each piece once pushed: an answer half taken holds only its other half.
 * Destroyed (the connection closed or cut, src/http/send-deadline.ts), it lets go of the rest at
 * once and pushes nothing more.
 *
 * A caller that stops reading may keep its connection for minutes before the send deadline cuts
 * it (the kernel takes the first megabytes of the answer, and they count as taken), and forty such
 * callers held 40 × 2.6 MB of unsent journals (BENCHMARKS.md, issue 34 item 4). So an answer of
 * which at least PACK_MIN_BYTES of its own (not shared) bytes are unsent and nothing has been read
 * for STALL_MS is packed: its unsent pieces deflated on libuv's threads (JSON shrinks several
 * times), and inflated again as the caller reads on. One timer per large answer that has waited
 * for its reader, none for the others.
 */
export class PiecesStream extends Readable {
  private pieces: Array<Buffer | undefined>;
  private next = 0;
  /** How much of the next piece was pushed already: a piece goes out in slices of PUSH_MAX_BYTES. */
  private offset = 0;
  /** Bytes of the unsent pieces that no other answer holds: what packing frees. */
  private unsentOwnBytes: number;
  private lastRead = 0;
  private stall: NodeJS.Timeout | undefined;
  private packing: DeflateRaw | undefined;
  private packed: Buffer[] | undefined;
  private unpacking: InflateRaw | undefined;
  /** A read asked for while packing: answered once the pieces are packed. */
  private readWhilePacking = false;

  constructor(pieces: readonly Buffer[]) {
    super();
    this.pieces = [...pieces];
    this.unsentOwnBytes = pieces.reduce((n, piece) => (sharedPieces.has(piece) ? n : n + piece.length), 0);
  }

  override _read(): void {
    this.lastRead = performance.now();
    if (this.unpacking) this.unpacking.resume();
    else if (this.packed) this.unpack(this.packed);
    else if (this.packing) this.readWhilePacking = true;
    else this.pushPieces();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    clearTimeout(this.stall);
    this.pieces = [];
    this.packed = undefined;
    this.packing?.destroy();
    this.unpacking?.destroy();
    callback(err);
  }

  private pushPieces(): void {
    while (this.next < this.pieces.length) {
      const piece = this.pieces[this.next] as Buffer;
      const end = Math.min(piece.length, this.offset + PUSH_MAX_BYTES);
      // A slice of a long piece of the answer's own is a copy: a view would keep the whole piece alive
      // in the socket that holds it, and packing a stalled answer would free nothing of it.
      const own = !sharedPieces.has(piece);
      const whole = this.offset === 0 && end === piece.length;
      const slice = whole ? piece : own ? Buffer.from(piece.subarray(this.offset, end)) : piece.subarray(this.offset, end);
      if (end === piece.length) {
        this.pieces[this.next++] = undefined;
        this.offset = 0;
      } else {
        this.offset = end;
      }
      if (own) this.unsentOwnBytes -= slice.length;
      if (!this.push(slice)) {
        this.watchForStall();
        return;
      }
    }
    clearTimeout(this.stall);
    this.push(null);
  }

  private watchForStall(): void {
    if (this.unsentOwnBytes < PACK_MIN_BYTES) return;
    if (this.stall) return;
    this.stall = setTimeout(() => this.stalled(), STALL_MS).unref();
  }

  private stalled(): void {
    const idleMs = performance.now() - this.lastRead;
    if (this.destroyed || this.next >= this.pieces.length) return;
    if (idleMs < STALL_MS) {
      this.stall = setTimeout(() => this.stalled(), STALL_MS - idleMs).unref();
      return;
    }
    this.pack();
  }

  /** Deflates the unsent pieces, letting go of each as it is handed over; a read meanwhile waits for the end. */
  private pack(): void {
    const deflate = createDeflateRaw({ level: constants.Z_BEST_SPEED });
    const out: Buffer[] = [];
    this.packing = deflate;
    deflate.on('data', (chunk: Buffer) => out.push(chunk));
    deflate.once('error', (err) => this.destroy(err));
    deflate.once('end', () => {
      this.packing = undefined;
      if (this.destroyed) return;
      if (this.readWhilePacking) this.unpack(out);
      else this.packed = out;
    });
    for (; this.next < this.pieces.length; this.next++) {
      deflate.write((this.pieces[this.next] as Buffer).subarray(this.offset));
      this.pieces[this.next] = undefined;
      this.offset = 0;
    }
    this.pieces = [];
    this.unsentOwnBytes = 0;
    deflate.end();
  }

  private unpack(packed: Buffer[]): void {
    const inflate = createInflateRaw();
    this.unpacking = inflate;
    this.packed = undefined;
    inflate.on('data', (chunk: Buffer) => {
      if (!this.push(chunk)) inflate.pause();
    });
    inflate.once('error', (err) => this.destroy(err));
    inflate.once('end', () => this.push(null));
    for (const chunk of packed) inflate.write(chunk);
    inflate.end();
  }
}

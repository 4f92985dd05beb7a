/**
 * Hostile review of c642c12: packing (pieces-stream.ts) is there to let go of a stalled answer's
 * unsent bytes, and now picks up in the middle of a piece. But the slices already pushed are views of
 * that piece, and a stalled caller's socket still holds the last of them: the whole piece stays in
 * memory through that view, beside its packed copy. A 14 MB journal note read by a caller that stops
 * after the first slice holds its 14 MB and the deflated rest, more than before the change (when the
 * piece went out whole and nothing was packed).
 */
import { Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { PiecesStream, STALL_MS } from '../../src/http/serialization/pieces-stream.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('a stalled answer of one long piece, packed in its middle', () => {
  it('lets go of the piece: nothing the stalled socket holds keeps all of it alive', async () => {
    // 8 MiB of journal-like text, in memory of its own (not the pool), as Buffer.from(a long string) is.
    const text = Array.from({ length: 2 ** 18 }, (_, i) => `rad ${i}: blodtryck 120/80, puls 64; `).join('').slice(0, 8 * 2 ** 20);
    let piece: Buffer | undefined = Buffer.from(text);
    const held = new WeakRef(piece.buffer);
    const stream = new PiecesStream([piece]);
    piece = undefined;
    // A socket whose caller stopped reading: it takes the first write and never finishes it.
    const kept: Buffer[] = [];
    const stalled = new Writable({ highWaterMark: 16 * 1024, write(chunk: Buffer, _encoding, _callback) { kept.push(chunk); } });
    stream.pipe(stalled);
    const packedBy = performance.now() + STALL_MS * 3;
    while ((stream as unknown as { packed: unknown }).packed === undefined && performance.now() < packedBy) await new Promise((r) => setTimeout(r, 50));
    expect((stream as unknown as { packed: unknown }).packed).toBeDefined();
    expect(kept.length).toBeGreaterThan(0);
    gc();
    await new Promise((r) => setTimeout(r, 0));
    gc();
    const stillHeld = held.deref() !== undefined;
    stream.destroy();
    stalled.destroy();
    expect({ pieceStillHeld: stillHeld, heldBy: kept.map((c) => c.buffer.byteLength) }).toEqual({ pieceStillHeld: false, heldBy: kept.map((c) => c.length) });
    // Making 8 MiB of text and packing it took over 10 s once on a 2-vCPU VM at load 7 (2026-11-29).
  }, 30_000);
});

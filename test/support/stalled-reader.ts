import type { Readable } from 'node:stream';

/**
 * Reads `first` chunks of `stream`, then nothing for `stallMs` (with `duringStall` at its end, to look
 * at what the stream holds while stalled), then the rest: every byte it gave, in order.
 */
export async function readThroughStall(stream: Readable, first: number, stallMs: number, duringStall: () => Promise<void> = async () => undefined): Promise<Buffer> {
  const got: Buffer[] = [];
  await new Promise<void>((resolve) => stream.on('data', (chunk: Buffer) => {
    got.push(chunk);
    if (got.length === first) {
      stream.pause();
      resolve();
    }
  }));
  await new Promise((resolve) => setTimeout(resolve, stallMs));
  await duringStall();
  stream.resume();
  await new Promise((resolve) => stream.once('end', resolve));
  return Buffer.concat(got);
}

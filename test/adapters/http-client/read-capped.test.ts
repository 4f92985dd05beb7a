import { describe, expect, it } from 'vitest';
import { BodyLengthMismatchError, BodyTooLargeError, COPY_TURN_BYTES, readCappedBytes } from '../../../src/adapters/http-client/read-capped.js';

/** A body stream of these chunks, noting whether it was destroyed and handing each chunk out as the stream's own memory. */
function bodyOf(chunks: Uint8Array[]): AsyncIterable<Uint8Array> & { destroy: (e?: Error) => void; destroyed: boolean } {
  return {
    destroyed: false,
    destroy(): void {
      this.destroyed = true;
    },
    async *[Symbol.asyncIterator]() {
      for (const chunk of chunks) yield chunk;
    },
  };
}

const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'utf8'));

describe('readCappedBytes', () => {
  it('joins the chunks of a body of declared length, multi-byte characters split between chunks included', async () => {
    const text = 'Dos: <![CDATA[<5 mg]]> per dygn, åäö '.repeat(2_000);
    const all = Buffer.from(text, 'utf8');
    const chunks: Uint8Array[] = [];
    let at = 0;
    for (const n of [1, 7, 4_096, 31, 65_536, Infinity]) {
      chunks.push(new Uint8Array(all.subarray(at, at + n)));
      at += n;
    }
    const read = await readCappedBytes(bodyOf(chunks), 1 << 20, all.length);
    expect(read.toString('utf8')).toBe(text);
  });

  it('copies each chunk as it arrives: memory the stream reuses afterwards does not change the body', async () => {
    const first = bytes('<a>first</a>');
    const second = bytes('<b>next</b>');
    const body = {
      destroy: (): void => undefined,
      async *[Symbol.asyncIterator]() {
        yield first;
        first.fill(0x78); // the stream's buffer, filled again before the next chunk
        yield second;
        second.fill(0x78);
      },
    };
    const declared = await readCappedBytes(body, 1_000, first.length + second.length);
    expect(declared.toString('utf8')).toBe('<a>first</a><b>next</b>');
  });

  it('refuses a body that ends before its declared length, never handing out the rest of the buffer', async () => {
    const body = bodyOf([bytes('<a>cut</a>')]);
    await expect(readCappedBytes(body, 1_000, 64)).rejects.toBeInstanceOf(BodyLengthMismatchError);
  });

  it('refuses a body that runs past its declared length and destroys the stream', async () => {
    const body = bodyOf([bytes('<a>'), bytes('more than declared</a>')]);
    await expect(readCappedBytes(body, 1_000, 10)).rejects.toBeInstanceOf(BodyLengthMismatchError);
    expect(body.destroyed).toBe(true);
  });

  it('gives the event loop a turn while it copies a large body that arrived all at once, with or without a declared length', async () => {
    const chunk = 64 * 1024;
    const total = 3 * COPY_TURN_BYTES;
    for (const declared of [total, undefined]) {
      let handedOut = 0;
      const body = {
        destroy: (): void => undefined,
        async *[Symbol.asyncIterator]() {
          for (let at = 0; at < total; at += chunk) {
            handedOut += chunk;
            yield new Uint8Array(chunk).fill(at / chunk);
          }
        },
      };
      let copiedWhenTurnCame = -1;
      const read = readCappedBytes(body, total, declared);
      // Every chunk is there at once, as in a stream that has buffered megabytes: only a turn the
      // reader gives lets this run before the whole body is read (and, undeclared, copied).
      setImmediate(() => {
        copiedWhenTurnCame = handedOut;
      });
      const whole = await read;
      expect(whole.length).toBe(total);
      expect([whole[0], whole[chunk], whole[total - 1]]).toEqual([0, 1, total / chunk - 1]);
      expect(copiedWhenTurnCame).toBeGreaterThan(0);
      expect(copiedWhenTurnCame).toBeLessThanOrEqual(declared === undefined ? total : COPY_TURN_BYTES);
    }
  });

  it('reads a body of declared length zero as empty', async () => {
    expect((await readCappedBytes(bodyOf([]), 1_000, 0)).length).toBe(0);
  });

  it('still caps a body without a usable declared length, and destroys the stream past the cap', async () => {
    for (const declared of [undefined, 2_000, -1, 1.5, Number.NaN]) {
      const body = bodyOf([bytes('x'.repeat(600)), bytes('y'.repeat(600))]);
      await expect(readCappedBytes(body, 1_000, declared)).rejects.toBeInstanceOf(BodyTooLargeError);
      expect(body.destroyed).toBe(true);
    }
    expect((await readCappedBytes(bodyOf([bytes('<a/>'), bytes('<b/>')]), 1_000)).toString()).toBe('<a/><b/>');
  });
});

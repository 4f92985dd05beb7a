/**
 * A large answer leaves as a stream of its pieces (serialization/json-answer.ts, issue 20 item 6):
 * over HTTP it must still be exactly the bytes, with the Content-Length a client checks, on GET and
 * on the HEAD beside it, and a small answer stays one buffer.
 */
import type { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonAnswer, ONE_BUFFER_BYTES } from '../../src/http/serialization/json-answer.js';
import { STALL_MS } from '../../src/http/serialization/pieces-stream.js';
import { readThroughStall } from '../support/stalled-reader.js';
import { SlicedJsonSerializer } from '../../src/http/serialization/sliced-json.js';

const item = Type.Object({ rows: Type.Array(Type.Object({ text: Type.String() })) });
const rowsOf = (n: number) => [Object.freeze({ rows: Object.freeze(Array.from({ length: n }, (_, i) => Object.freeze({ text: `rad ${i}: Dos 1 × 2, vid behov ${'ö'.repeat(200)}` }))) })];

describe('a JsonAnswer sent by fastify', () => {
  let app: FastifyInstance;
  const serializer = new SlicedJsonSerializer(item, 'rows');
  beforeAll(async () => {
    app = Fastify();
    app.get('/answer/:n', async (request, reply) => {
      const answer: JsonAnswer = await serializer.serialise(rowsOf(Number((request.params as { n: string }).n)));
      return reply.type('application/json; charset=utf-8').header('content-length', answer.byteLength).send(answer.body());
    });
    await app.ready();
  });
  afterAll(() => app.close());

  for (const n of [2, 600]) {
    it(`${n} rows: GET gives the bytes with their Content-Length, HEAD the same length and no body`, async () => {
      const expected = JSON.stringify(rowsOf(n));
      const bytes = Buffer.byteLength(expected);
      expect(bytes > ONE_BUFFER_BYTES).toBe(n === 600);
      const get = await app.inject({ method: 'GET', url: `/answer/${n}` });
      expect([get.statusCode, get.headers['content-length'], get.headers['transfer-encoding']]).toEqual([200, String(bytes), undefined]);
      expect(get.body).toBe(expected);
      const head = await app.inject({ method: 'HEAD', url: `/answer/${n}` });
      expect([head.statusCode, head.headers['content-length'], head.body]).toEqual([200, String(bytes), '']);
    });
  }
});

/** The collector, which vitest does not expose: `--expose-gc` set at run time, `gc` taken from a fresh context. */
function collector(): () => Promise<void> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  // A WeakRef's target is kept for the rest of the job that last read it: collect on a later turn, twice.
  return async () => {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  };
}

describe('a JsonAnswer stream cut off (issue 34 item 4)', () => {
  /** The body stream of a ~2 MiB answer of 64 pieces of its own; `refs` learn whether each piece is still held. */
  function answerStream(refs: Array<WeakRef<Buffer>>): Readable {
    const pieces = Array.from({ length: 64 }, (_, i) => Buffer.alloc(32 * 1024, 0x30 + (i % 10)));
    refs.push(...pieces.map((piece) => new WeakRef(piece)));
    return new JsonAnswer(pieces, 64 * 32 * 1024).body() as Readable;
  }

  it('issue 34 item 4: once destroyed (the connection reset), it pushes nothing more and holds none of the pieces it had not sent', async () => {
    const collect = collector();
    const refs: Array<WeakRef<Buffer>> = [];
    const stream = answerStream(refs);
    const first = await new Promise<Buffer>((resolve) => stream.once('data', (chunk: Buffer) => {
      stream.pause();
      resolve(chunk);
    }));
    let later = 0;
    stream.on('data', () => (later += 1));
    stream.destroy();
    await new Promise((resolve) => stream.once('close', resolve));
    await collect();
    expect(first.length).toBe(32 * 1024);
    expect(later).toBe(0);
    // The stream itself is still reachable here; the pieces it had not sent must not be.
    expect({ destroyed: stream.destroyed, held: refs.slice(8).filter((ref) => ref.deref() !== undefined).length }).toEqual({ destroyed: true, held: 0 });
  });

  it('issue 34 item 4: while it is read, the pieces already sent are not held by it', async () => {
    const collect = collector();
    const refs: Array<WeakRef<Buffer>> = [];
    const stream = answerStream(refs);
    let read = 0;
    await new Promise<void>((resolve) => stream.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read >= 32 * 32 * 1024) {
        stream.pause();
        resolve();
      }
    }));
    await collect();
    const held = refs.map((ref) => ref.deref() !== undefined);
    expect({ sentHeld: held.slice(0, 16).filter(Boolean).length, unsentHeld: held.slice(48).filter(Boolean).length }).toEqual({ sentHeld: 0, unsentHeld: 16 });
    stream.destroy();
  });
});

describe('a JsonAnswer stream whose reader stalls (issue 34 item 4)', () => {
  /** A ~2 MiB answer of 64 pieces of its own, of text that deflates as a journal does, different in every piece. */
  function journalLikeStream(refs: Array<WeakRef<Buffer>>): { stream: Readable; expected: Buffer } {
    const pieces = Array.from({ length: 64 }, (_, i) => Buffer.from(`{"note":"Anteckning ${i}: ${'blodtryck 120/80, puls 64; '.repeat(1300)}"}`.slice(0, 32 * 1024)));
    refs.push(...pieces.map((piece) => new WeakRef(piece)));
    return { stream: new JsonAnswer(pieces, 64 * 32 * 1024).body() as Readable, expected: Buffer.concat(pieces) };
  }

  it(`issue 34 item 4: after ${STALL_MS} ms with nothing read, it lets go of its unsent pieces (packed), and a reader that goes on still gets every byte in order`, async () => {
    const collect = collector();
    const refs: Array<WeakRef<Buffer>> = [];
    const { stream, expected } = journalLikeStream(refs);
    const read = await readThroughStall(stream, 4, STALL_MS + 500, async () => {
      await collect();
      expect(refs.slice(8).filter((ref) => ref.deref() !== undefined).length).toBe(0);
    });
    expect(read.equals(expected)).toBe(true);
  });
});

/**
 * A large answer leaves as a stream of its pieces (serialization/json-answer.ts, issue 20 item 6):
 * over HTTP it must still be exactly the bytes, with the Content-Length a client checks, on GET and
 * on the HEAD beside it, and a small answer stays one buffer.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonAnswer } from '../../src/http/serialization/json-answer.js';
import { ONE_BUFFER_BYTES } from '../../src/http/serialization/json-answer.js';
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

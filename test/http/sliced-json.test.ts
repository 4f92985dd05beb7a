import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import fastJsonStringify from 'fast-json-stringify';
import { Type, type TSchema } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PEOPLE, generateDemoData } from '../../src/dev/demo-data/generate.js';
import { DocumentStore } from '../../src/adapters/ehr-embedded/document-store.js';
import { EmbeddedEhr } from '../../src/adapters/ehr-embedded/embedded-ehr.js';
import { WriteStateStore } from '../../src/adapters/ehr-embedded/write-state-store.js';
import { OPERATIONS, READ_NAMES, readPolicyOf } from '../../src/domain/operations/table.js';
import { readerOf } from '../../src/domain/use-cases/read-sources.js';
import { ONE_BUFFER_BYTES } from '../../src/http/serialization/json-answer.js';
import { SlicedJsonSerializer } from '../../src/http/serialization/sliced-json.js';
import { turnsWhile } from '../support/event-loop-turns.js';

const ZONE = 'Europe/Stockholm';
const NOW = Date.UTC(2026, 10, 21, 8, 0);

/** What fastify itself sends for a route whose 200 schema is an array of `item`. */
const fastifyWould = (item: TSchema, value: readonly unknown[]): string => fastJsonStringify(Type.Array(item))(value as unknown[]);

/** The pieces a reply writes, as the body hands them out in flowing mode (as `pipe` reads it). */
async function piecesOf(body: Buffer | Readable): Promise<Buffer[]> {
  if (Buffer.isBuffer(body)) return [body];
  const pieces: Buffer[] = [];
  body.on('data', (piece: Buffer) => pieces.push(piece));
  await finished(body);
  return pieces;
}

const bodyText = async (body: Buffer | Readable): Promise<string> => Buffer.concat(await piecesOf(body)).toString('utf8');

describe('SlicedJsonSerializer', () => {
  let dir: string;
  let ehr: EmbeddedEhr;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sliced-json-'));
    await generateDemoData(path.join(dir, 'ehr'), { now: NOW, zone: ZONE });
    ehr = new EmbeddedEhr(new DocumentStore(path.join(dir, 'ehr')), await WriteStateStore.open(path.join(dir, 'writes.json')), ZONE, () => undefined);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes every read of every demo person byte for byte as fastify would, in one slice or in many', async () => {
    let compared = 0;
    for (const read of READ_NAMES) {
      const { item, bulk } = OPERATIONS[read].answer;
      for (const person of DEMO_PEOPLE) {
        const records: unknown[] = await readerOf(ehr.reads, read)(person.id, {});
        const expected = fastifyWould(item, records);
        for (const sliceMs of [4, 0]) {
          const answer = await new SlicedJsonSerializer(item, bulk, sliceMs).serialise(records);
          expect(answer.copy().toString('utf8')).toBe(expected);
          expect(answer.byteLength).toBe(Buffer.byteLength(expected));
          expect((await bodyText(answer.body()))).toBe(expected);
        }
        // Masked records are fresh (unfrozen) copies: the same rule holds.
        const masked = readPolicyOf(read).withoutContactDetails(records as never[]);
        expect((await new SlicedJsonSerializer(item, bulk).serialise(masked)).copy().toString()).toBe(fastifyWould(item, masked));
        compared++;
      }
    }
    expect(compared).toBe(READ_NAMES.length * DEMO_PEOPLE.length);
  });

  it('finds the bulk field by its key only, whatever the strings before it hold', async () => {
    const item = Type.Object({
      note: Type.String(),
      rows: Type.Array(Type.Object({ n: Type.Number(), s: Type.Optional(Type.String()) })),
      after: Type.Optional(Type.String()),
    });
    const tricky = ['"rows":[]', 'x","rows":[]', '\\"rows\\":[]', '"rows":[', 'rows', '', 'å–\u2028"'];
    const items = tricky.map((note, i) => ({
      note, rows: Array.from({ length: i }, (_, n) => ({ n, s: note })), after: note, extra: 'not in the schema',
    }));
    const sliced = (await new SlicedJsonSerializer(item, 'rows', 0).serialise(items)).copy();
    expect(sliced.toString('utf8')).toBe(fastifyWould(item, items));
    expect(JSON.parse(sliced.toString('utf8'))).toHaveLength(tricky.length);
  });

  it('gives the event loop turns while it works through a large answer', async () => {
    const item = Type.Object({ rows: Type.Array(Type.Object({ text: Type.String() })) });
    const items = [{ rows: Array.from({ length: 2000 }, (_, i) => ({ text: `row ${i} ${'x'.repeat(200)}` })) }];
    // Other work scheduled on the loop (one immediate a turn) runs between slices. Counted in turns,
    // not by a 1 ms timer: on a fast runtime the whole answer can take under 10 ms.
    const { result: answer, turns } = await turnsWhile(() => new SlicedJsonSerializer(item, 'rows', 0).serialise(items));
    expect(answer.copy().toString('utf8')).toBe(fastifyWould(item, items));
    expect(turns).toBeGreaterThan(10);
  });

  it('answers the same bytes for the same frozen records, read after read, written from the remembered JSON itself', async () => {
    const route = OPERATIONS.getJournalNotes.answer;
    const serializer = new SlicedJsonSerializer(route.item, route.bulk);
    const records = await readerOf(ehr.reads, 'getJournalNotes')(DEMO_PEOPLE[0]?.id ?? '', {});
    expect(Object.isFrozen(records[0]?.JournalNoteEHRExtract[0])).toBe(true);
    const first = await serializer.serialise(records);
    const second = await serializer.serialise(records);
    expect(second.copy().toString()).toBe(first.copy().toString());
    expect(second.copy().toString()).toBe(fastifyWould(route.item, records));
  });

  it('streams a large answer from the remembered JSON itself, never from copies of it (issue 20 item 6)', async () => {
    const item = Type.Object({ rows: Type.Array(Type.Object({ text: Type.String() })) });
    const rows = Array.from({ length: 400 }, (_, i) => Object.freeze({ text: `anteckning ${i} ${'å'.repeat(300)}` }));
    const items = [Object.freeze({ rows: Object.freeze(rows) })];
    const serializer = new SlicedJsonSerializer(item, 'rows');
    const [first, second] = [await serializer.serialise(items), await serializer.serialise(items)];
    expect(first.byteLength).toBeGreaterThan(ONE_BUFFER_BYTES);
    const [a, b] = [await piecesOf(first.body()), await piecesOf(second.body())];
    expect(Buffer.concat(b).toString('utf8')).toBe(fastifyWould(item, items));
    // Each row's JSON is in memory once, whatever the number of answers in flight that hold it.
    const rowPieces = (pieces: Buffer[]): Buffer[] => pieces.filter((piece) => piece.length > 300);
    expect(rowPieces(a)).toHaveLength(rows.length);
    rowPieces(b).forEach((piece, i) => expect(piece).toBe(rowPieces(a)[i]));
    // A copy is the answer's own: changing it cannot change the next answer.
    const copy = first.copy();
    copy.fill(0);
    expect((await serializer.serialise(items)).copy().toString()).toBe(second.copy().toString());
  });

  it('never remembers what can still change: unfrozen records, or frozen ones with an unfrozen part', async () => {
    const item = Type.Object({ rows: Type.Array(Type.Object({ n: Type.Number(), inner: Type.Object({ s: Type.String() }) })) });
    const serializer = new SlicedJsonSerializer(item, 'rows');
    const inner = { s: 'before' };
    const shallow = Object.freeze({ n: 1, inner });
    const open = { n: 2, inner: { s: 'before' } };
    const items = [{ rows: [shallow, open] }];
    expect((await serializer.serialise(items)).copy().toString()).toBe(fastifyWould(item, items));
    inner.s = 'after';
    open.n = 3;
    open.inner.s = 'after';
    const again = (await serializer.serialise(items)).copy().toString();
    expect(again).toBe(fastifyWould(item, items));
    expect(again).toContain('"n":3');
    expect(again).not.toContain('before');
  });

  it('calls an answer large by its items and bulk elements together (issue 20 item 6: a large one is serialised from a turn of its own)', () => {
    const item = Type.Object({ rows: Type.Array(Type.Object({ n: Type.Number() })) });
    const rows = (k: number): { rows: { n: number }[] } => ({ rows: Array.from({ length: k }, (_, n) => ({ n })) });
    const serializer = new SlicedJsonSerializer(item, 'rows');
    expect(serializer.isLarge([rows(49), rows(49)])).toBe(false);
    expect(serializer.isLarge([rows(50), rows(49)])).toBe(true);
    expect(serializer.isLarge(Array.from({ length: 101 }, () => rows(0)))).toBe(true);
    expect(new SlicedJsonSerializer(item).isLarge([rows(500)])).toBe(false);
  });

  it('refuses a bulk field the item schema does not have as an array', () => {
    const item = Type.Object({ rows: Type.String() });
    expect(() => new SlicedJsonSerializer(item, 'rows')).toThrow(/not an array property/);
    expect(() => new SlicedJsonSerializer(item, 'missing')).toThrow(/not an array property/);
  });
});

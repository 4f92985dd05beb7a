import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SealedPageCursors } from '../../../src/adapters/page-cursor/sealed-page-cursors.js';

const SECRET = randomBytes(32);
const BINDING = JSON.stringify(['memory', '191212121212', '', '', 'caller']);
const AFTER = { timeMs: Date.parse('2026-11-21T08:00:00.123Z'), id: '4711' };
const UNTIL = Date.parse('2026-11-29T08:00:00.000Z');

/** `body` and its MAC as the service sealed cursors in the clear (formats 1 and 2), base64url: the oracle of those formats. */
function inTheClear(secret: Buffer, binding: string, body: Buffer): string {
  const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'patient-data-access access-log cursor v1', 32));
  const b = Buffer.from(binding, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(b.length, 0);
  const mac = createHmac('sha256', key).update(length).update(b).update(body).digest().subarray(0, 16);
  return Buffer.concat([body, mac]).toString('base64url');
}

/** A cursor as the service sealed it before walks had an end (format 1: version, time, id): a walk begun before an upgrade carries on. */
function formatOneCursor(secret: Buffer, binding: string, after: { timeMs: number; id: string }, version = 1): string {
  const body = Buffer.alloc(9 + after.id.length);
  body.writeUInt8(version, 0);
  body.writeBigInt64BE(BigInt(after.timeMs), 1);
  body.write(after.id, 9, 'latin1');
  return inTheClear(secret, binding, body);
}

/** A cursor as the service sealed it with the walk's end before cursors were encrypted (format 2: version, time, until, id). */
function formatTwoCursor(secret: Buffer, binding: string, after: { timeMs: number; id: string }, untilMs: number): string {
  const body = Buffer.alloc(17 + after.id.length);
  body.writeUInt8(2, 0);
  body.writeBigInt64BE(BigInt(after.timeMs), 1);
  body.writeBigInt64BE(BigInt(untilMs), 9);
  body.write(after.id, 17, 'latin1');
  return inTheClear(secret, binding, body);
}

describe('access-log cursors', () => {
  const cursors = new SealedPageCursors(SECRET);

  it('carry the walk: the last entry shown and the walk\'s end', () => {
    const cursor = cursors.seal({ after: AFTER, untilMs: UNTIL }, BINDING);
    expect(cursor.length).toBeLessThanOrEqual(128);
    expect(cursors.open(cursor, BINDING)).toEqual({ after: AFTER, untilMs: UNTIL });
    expect(cursors.open(cursor, `${BINDING} `)).toBeUndefined();
    expect(new SealedPageCursors(randomBytes(32)).open(cursor, BINDING)).toBeUndefined();
  });

  it('open a cursor of the format before (no end): the walk gets its end from that page on', () => {
    expect(cursors.open(formatOneCursor(SECRET, BINDING, AFTER), BINDING)).toEqual({ after: AFTER });
    expect(cursors.open(formatOneCursor(SECRET, `${BINDING}x`, AFTER), BINDING)).toBeUndefined();
    // A format of no version, sealed with the right key all the same, is not read as either.
    expect(cursors.open(formatOneCursor(SECRET, BINDING, AFTER, 3), BINDING)).toBeUndefined();
  });

  // Left alone by earlier sessions: a cursor carried the trail's row id (PostgreSQL) or byte offset (the file) in
  // the clear, so a patient paging their own log could watch how many accesses every patient's logs grew by.
  it('hide where the walk stands in the trail: neither the id nor a time is readable, and no two seals are alike', () => {
    const position = { after: { timeMs: AFTER.timeMs, id: '98765432101234' }, untilMs: UNTIL };
    const first = cursors.seal(position, BINDING);
    const second = cursors.seal(position, BINDING);
    expect(first).not.toBe(second);
    for (const cursor of [first, second]) {
      const bytes = Buffer.from(cursor, 'base64url');
      const time = Buffer.alloc(8);
      time.writeBigInt64BE(BigInt(AFTER.timeMs));
      const until = Buffer.alloc(8);
      until.writeBigInt64BE(BigInt(UNTIL));
      expect([bytes.includes(Buffer.from(position.after.id, 'latin1')), bytes.includes(time), bytes.includes(until)]).toEqual([false, false, false]);
      expect(cursors.open(cursor, BINDING)).toEqual(position);
      expect(cursor.length).toBeLessThanOrEqual(128);
    }
    // Nor its length (helper-99, F3: the id's digits made the cursor longer, telling when the trail passed each power of ten).
    const lengths = new Set(['7', '4711', '98765432101234', '9'.repeat(20)].map((id) => cursors.seal({ after: { timeMs: AFTER.timeMs, id }, untilMs: UNTIL }, BINDING).length));
    expect(lengths.size).toBe(1);
    expect(cursors.open(cursors.seal({ after: { timeMs: AFTER.timeMs, id: '0' }, untilMs: UNTIL }, BINDING), BINDING)?.after.id).toBe('0');
    // The longest id a store gives still fits.
    expect(cursors.open(cursors.seal({ after: { timeMs: AFTER.timeMs, id: '9'.repeat(20) }, untilMs: UNTIL }, BINDING), BINDING)?.after.id).toBe('9'.repeat(20));
  });

  it('open a cursor sealed in the clear before they were encrypted (format 2): a walk begun before an upgrade carries on', () => {
    expect(cursors.open(formatTwoCursor(SECRET, BINDING, AFTER, UNTIL), BINDING)).toEqual({ after: AFTER, untilMs: UNTIL });
    expect(cursors.open(formatTwoCursor(SECRET, `${BINDING}x`, AFTER, UNTIL), BINDING)).toBeUndefined();
    expect(cursors.open(formatTwoCursor(randomBytes(32), BINDING, AFTER, UNTIL), BINDING)).toBeUndefined();
  });

  it('refuse every byte altered, and bodies cut short', () => {
    const cursor = cursors.seal({ after: { timeMs: AFTER.timeMs, id: '1' }, untilMs: UNTIL }, BINDING);
    const bytes = Buffer.from(cursor, 'base64url');
    for (let i = 0; i < bytes.length; i++) {
      const altered = Buffer.from(bytes);
      altered.writeUInt8(altered.readUInt8(i) ^ 0x01, i);
      expect([i, cursors.open(altered.toString('base64url'), BINDING)]).toEqual([i, undefined]);
    }
    for (let n = 0; n < bytes.length; n++) expect(cursors.open(bytes.subarray(0, n).toString('base64url'), BINDING)).toBeUndefined();
  });

  it('seal only positions they can open again', () => {
    expect(() => cursors.seal({ after: AFTER, untilMs: Number.POSITIVE_INFINITY }, BINDING)).toThrow(TypeError);
    expect(() => cursors.seal({ after: { timeMs: AFTER.timeMs, id: 'x' }, untilMs: UNTIL }, BINDING)).toThrow(TypeError);
  });
});

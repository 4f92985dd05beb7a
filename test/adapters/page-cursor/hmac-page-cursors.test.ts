import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HmacPageCursors } from '../../../src/adapters/page-cursor/hmac-page-cursors.js';

const SECRET = randomBytes(32);
const BINDING = JSON.stringify(['memory', '191212121212', '', '', 'caller']);
const AFTER = { timeMs: Date.parse('2026-11-21T08:00:00.123Z'), id: '4711' };
const UNTIL = Date.parse('2026-11-29T08:00:00.000Z');

/**
 * A cursor as the service sealed it before walks had an end (format 1: version, time, id), frozen here as the
 * oracle of that format: a walk begun on an instance of the older version carries on after an upgrade.
 */
function formatOneCursor(secret: Buffer, binding: string, after: { timeMs: number; id: string }, version = 1): string {
  const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'patient-data-access access-log cursor v1', 32));
  const body = Buffer.alloc(9 + after.id.length);
  body.writeUInt8(version, 0);
  body.writeBigInt64BE(BigInt(after.timeMs), 1);
  body.write(after.id, 9, 'latin1');
  const b = Buffer.from(binding, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(b.length, 0);
  const mac = createHmac('sha256', key).update(length).update(b).update(body).digest().subarray(0, 16);
  return Buffer.concat([body, mac]).toString('base64url');
}

describe('access-log cursors', () => {
  const cursors = new HmacPageCursors(SECRET);

  it('carry the walk: the last entry shown and the walk\'s end', () => {
    const cursor = cursors.seal({ after: AFTER, untilMs: UNTIL }, BINDING);
    expect(cursor.length).toBeLessThanOrEqual(128);
    expect(cursors.open(cursor, BINDING)).toEqual({ after: AFTER, untilMs: UNTIL });
    expect(cursors.open(cursor, `${BINDING} `)).toBeUndefined();
    expect(new HmacPageCursors(randomBytes(32)).open(cursor, BINDING)).toBeUndefined();
  });

  it('open a cursor of the format before (no end): the walk gets its end from that page on', () => {
    expect(cursors.open(formatOneCursor(SECRET, BINDING, AFTER), BINDING)).toEqual({ after: AFTER });
    expect(cursors.open(formatOneCursor(SECRET, `${BINDING}x`, AFTER), BINDING)).toBeUndefined();
    // A format of no version, sealed with the right key all the same, is not read as either.
    expect(cursors.open(formatOneCursor(SECRET, BINDING, AFTER, 3), BINDING)).toBeUndefined();
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

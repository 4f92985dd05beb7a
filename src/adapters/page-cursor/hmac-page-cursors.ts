import { createHmac, createSecretKey, hkdfSync, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { LogPosition } from '../../ports/access-log.port.js';
import type { PageCursors, WalkPosition } from '../../ports/page-cursors.port.js';

/** Format 2 carries the walk's end; format 1 (no end) is still opened, so a walk begun before an upgrade carries on. */
const VERSION = 2;
const ENDLESS = 1;
const MAC_BYTES = 16;
const ID = /^[0-9]{1,20}$/;
const MAX_CURSOR = 128;

/**
 * Cursors as base64url of `version | time (int64) | until (int64) | id | HMAC-SHA256(binding | the
 * rest)`, the MAC cut to 128 bits (format 1 had no `until`). The key is derived from a secret with
 * HKDF, so the secret itself signs nothing; instances given the same secret accept each other's cursors.
 */
export class HmacPageCursors implements PageCursors {
  // A KeyObject made once: given a Buffer, every createHmac first tests whether it is a KeyObject by
  // catching a thrown error, which was ~4 % of the service's CPU per access-log page (BENCHMARKS.md).
  private readonly key: KeyObject;

  constructor(secret: Buffer) {
    if (secret.length < 32) throw new TypeError('the cursor secret must be at least 32 bytes');
    this.key = createSecretKey(Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'patient-data-access access-log cursor v1', 32)));
  }

  seal({ after, untilMs }: WalkPosition, binding: string): string {
    if (!Number.isSafeInteger(after.timeMs) || !Number.isSafeInteger(untilMs) || !ID.test(after.id)) throw new TypeError('not a sealable position');
    const body = Buffer.alloc(17 + after.id.length);
    body.writeUInt8(VERSION, 0);
    body.writeBigInt64BE(BigInt(after.timeMs), 1);
    body.writeBigInt64BE(BigInt(untilMs), 9);
    body.write(after.id, 17, 'latin1');
    return Buffer.concat([body, this.mac(body, binding)]).toString('base64url');
  }

  open(cursor: string, binding: string): { after: LogPosition; untilMs?: number } | undefined {
    if (cursor.length > MAX_CURSOR || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
    const bytes = Buffer.from(cursor, 'base64url');
    // base64url that does not re-encode to itself (stray bits in the last character) is not ours.
    if (bytes.length < 10 + MAC_BYTES || bytes.toString('base64url') !== cursor) return undefined;
    const body = bytes.subarray(0, bytes.length - MAC_BYTES);
    if (!timingSafeEqual(bytes.subarray(bytes.length - MAC_BYTES), this.mac(body, binding))) return undefined;
    const version = body.readUInt8(0);
    const idAt = version === VERSION ? 17 : version === ENDLESS ? 9 : undefined;
    if (idAt === undefined || body.length <= idAt) return undefined;
    const id = body.subarray(idAt).toString('latin1');
    const after = { timeMs: Number(body.readBigInt64BE(1)), id };
    if (!ID.test(id) || !Number.isSafeInteger(after.timeMs)) return undefined;
    if (version === ENDLESS) return { after };
    const untilMs = Number(body.readBigInt64BE(9));
    return Number.isSafeInteger(untilMs) ? { after, untilMs } : undefined;
  }

  private mac(body: Buffer, binding: string): Buffer {
    // The binding's length first, so no (binding, body) pair can be shifted into another.
    const b = Buffer.from(binding, 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(b.length, 0);
    return createHmac('sha256', this.key).update(length).update(b).update(body).digest().subarray(0, MAC_BYTES);
  }
}

import { createHmac, createSecretKey, hkdfSync, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { LogPosition } from '../../ports/access-log.port.js';
import type { PageCursors } from '../../ports/page-cursors.port.js';

const VERSION = 1;
const MAC_BYTES = 16;
const ID = /^[0-9]{1,20}$/;
const MAX_CURSOR = 128;

/**
 * Cursors as base64url of `version | time (int64) | id | HMAC-SHA256(version | binding | position)`,
 * the MAC cut to 128 bits. The key is derived from a secret with HKDF, so the secret itself signs
 * nothing; instances given the same secret accept each other's cursors.
 */
export class HmacPageCursors implements PageCursors {
  // A KeyObject made once: given a Buffer, every createHmac first tests whether it is a KeyObject by
  // catching a thrown error, which was ~4 % of the service's CPU per access-log page (BENCHMARKS.md).
  private readonly key: KeyObject;

  constructor(secret: Buffer) {
    if (secret.length < 32) throw new TypeError('the cursor secret must be at least 32 bytes');
    this.key = createSecretKey(Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'patient-data-access access-log cursor v1', 32)));
  }

  seal(position: LogPosition, binding: string): string {
    if (!Number.isSafeInteger(position.timeMs) || !ID.test(position.id)) throw new TypeError('not a sealable position');
    const body = Buffer.alloc(9 + position.id.length);
    body.writeUInt8(VERSION, 0);
    body.writeBigInt64BE(BigInt(position.timeMs), 1);
    body.write(position.id, 9, 'latin1');
    return Buffer.concat([body, this.mac(body, binding)]).toString('base64url');
  }

  open(cursor: string, binding: string): LogPosition | undefined {
    if (cursor.length > MAX_CURSOR || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
    const bytes = Buffer.from(cursor, 'base64url');
    // base64url that does not re-encode to itself (stray bits in the last character) is not ours.
    if (bytes.length < 10 + MAC_BYTES || bytes.toString('base64url') !== cursor) return undefined;
    const body = bytes.subarray(0, bytes.length - MAC_BYTES);
    if (!timingSafeEqual(bytes.subarray(bytes.length - MAC_BYTES), this.mac(body, binding))) return undefined;
    const id = body.subarray(9).toString('latin1');
    if (body.readUInt8(0) !== VERSION || !ID.test(id)) return undefined;
    const timeMs = Number(body.readBigInt64BE(1));
    return Number.isSafeInteger(timeMs) ? { timeMs, id } : undefined;
  }

  private mac(body: Buffer, binding: string): Buffer {
    // The binding's length first, so no (binding, body) pair can be shifted into another.
    const b = Buffer.from(binding, 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(b.length, 0);
    return createHmac('sha256', this.key).update(length).update(b).update(body).digest().subarray(0, MAC_BYTES);
  }
}

import { createCipheriv, createDecipheriv, createHmac, createSecretKey, hkdfSync, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { LogPosition } from '../../ports/access-log.port.js';
import type { PageCursors, WalkPosition } from '../../ports/page-cursors.port.js';

/**
 * Format 3 is encrypted; formats 2 (the walk's end in the clear) and 1 (no end) are still opened, so a
 * walk begun before an upgrade carries on.
 */
const ENCRYPTED = 3;
const IN_THE_CLEAR = 2;
const ENDLESS = 1;
const MAC_BYTES = 16;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const ID = /^[0-9]{1,20}$/;
/** A format-3 id's width: every one is padded to it, so a cursor's length does not tell how many digits the position has. */
const ID_WIDTH = 20;
const MAX_CURSOR = 128;

/** Where a format writes the position a walk stands at: time, until (formats 2 and 3), id to the end. */
interface Layout {
  timeAt: number;
  untilAt?: number;
  idAt: number;
}
const HIDDEN: Layout = { timeAt: 0, untilAt: 8, idAt: 16 };
const LAYOUTS: Readonly<Record<number, Layout>> = { [IN_THE_CLEAR]: { timeAt: 1, untilAt: 9, idAt: 17 }, [ENDLESS]: { timeAt: 1, idAt: 9 } };

/**
 * Cursors as base64url of `3 | nonce | AES-256-GCM(time (int64) | until (int64) | id, 20 digits) | tag`, the
 * binding (whose log, which interval, which caller) authenticated beside the version. Encrypted, not
 * only sealed: the id is the trail's row id (PostgreSQL) or byte offset (the file), and in the clear a
 * patient paging their own log could watch how fast every patient's logs grew. Formats 1 and 2 were
 * `version | time | [until] | id | HMAC-SHA256(binding | the rest)` cut to 128 bits. The keys are
 * derived from a secret with HKDF, so the secret itself neither signs nor encrypts anything; instances
 * given the same secret accept each other's cursors.
 */
export class SealedPageCursors implements PageCursors {
  // KeyObjects made once: given a Buffer, every createHmac first tests whether it is a KeyObject by
  // catching a thrown error, which was ~4 % of the service's CPU per access-log page (BENCHMARKS.md).
  private readonly macKey: KeyObject;
  private readonly cipherKey: KeyObject;

  constructor(secret: Buffer) {
    if (secret.length < 32) throw new TypeError('the cursor secret must be at least 32 bytes');
    this.macKey = createSecretKey(Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'patient-data-access access-log cursor v1', 32)));
    this.cipherKey = createSecretKey(Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'patient-data-access access-log cursor v3 aes-256-gcm', 32)));
  }

  seal({ after, untilMs }: WalkPosition, binding: string): string {
    if (!Number.isSafeInteger(after.timeMs) || !Number.isSafeInteger(untilMs) || !ID.test(after.id)) throw new TypeError('not a sealable position');
    const position = Buffer.alloc(HIDDEN.idAt + ID_WIDTH);
    position.writeBigInt64BE(BigInt(after.timeMs), HIDDEN.timeAt);
    position.writeBigInt64BE(BigInt(untilMs), HIDDEN.untilAt as number);
    // Zeros first, so its length never shows how far into the trail the entry lies (hostile review helper-99, F3).
    position.write(after.id.padStart(ID_WIDTH, '0'), HIDDEN.idAt, 'latin1');
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.cipherKey, nonce, { authTagLength: TAG_BYTES }).setAAD(this.associated(binding));
    const hidden = Buffer.concat([cipher.update(position), cipher.final()]);
    return Buffer.concat([Buffer.of(ENCRYPTED), nonce, hidden, cipher.getAuthTag()]).toString('base64url');
  }

  open(cursor: string, binding: string): { after: LogPosition; untilMs?: number } | undefined {
    if (cursor.length > MAX_CURSOR || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
    const bytes = Buffer.from(cursor, 'base64url');
    // base64url that does not re-encode to itself (stray bits in the last character) is not ours.
    if (bytes.length < 10 + MAC_BYTES || bytes.toString('base64url') !== cursor) return undefined;
    if (bytes.readUInt8(0) === ENCRYPTED) {
      const position = this.decrypted(bytes, binding);
      const opened = position === undefined || position.length !== HIDDEN.idAt + ID_WIDTH ? undefined : positionIn(position, HIDDEN);
      return opened === undefined ? undefined : { ...opened, after: { ...opened.after, id: opened.after.id.replace(/^0+(?=[0-9])/, '') } };
    }
    const body = bytes.subarray(0, bytes.length - MAC_BYTES);
    if (!timingSafeEqual(bytes.subarray(bytes.length - MAC_BYTES), this.mac(body, binding))) return undefined;
    const layout = LAYOUTS[body.readUInt8(0)];
    return layout === undefined ? undefined : positionIn(body, layout);
  }

  /** The position a format-3 cursor hides, or undefined when it was altered, cut or made for another binding or key. */
  private decrypted(bytes: Buffer, binding: string): Buffer | undefined {
    if (bytes.length < 1 + NONCE_BYTES + HIDDEN.idAt + 1 + TAG_BYTES) return undefined;
    const nonce = bytes.subarray(1, 1 + NONCE_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.cipherKey, nonce, { authTagLength: TAG_BYTES }).setAAD(this.associated(binding));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(bytes.subarray(1 + NONCE_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
    } catch {
      return undefined;
    }
  }

  /** The version and the binding, its length first, so no (binding, body) pair can be shifted into another. */
  private associated(binding: string): Buffer {
    const b = Buffer.from(binding, 'utf8');
    const head = Buffer.alloc(5);
    head.writeUInt8(ENCRYPTED, 0);
    head.writeUInt32BE(b.length, 1);
    return Buffer.concat([head, b]);
  }

  private mac(body: Buffer, binding: string): Buffer {
    // The binding's length first, so no (binding, body) pair can be shifted into another.
    const b = Buffer.from(binding, 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(b.length, 0);
    return createHmac('sha256', this.macKey).update(length).update(b).update(body).digest().subarray(0, MAC_BYTES);
  }
}

/** The position `body` holds as `layout` writes it, when every part of it is one a cursor can carry. */
function positionIn(body: Buffer, { timeAt, untilAt, idAt }: Layout): { after: LogPosition; untilMs?: number } | undefined {
  if (body.length <= idAt) return undefined;
  const id = body.subarray(idAt).toString('latin1');
  const after = { timeMs: Number(body.readBigInt64BE(timeAt)), id };
  if (!ID.test(id) || !Number.isSafeInteger(after.timeMs)) return undefined;
  if (untilAt === undefined) return { after };
  const untilMs = Number(body.readBigInt64BE(untilAt));
  return Number.isSafeInteger(untilMs) ? { after, untilMs } : undefined;
}

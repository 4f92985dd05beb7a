import { createCipheriv, createHmac, createSecretKey, hkdfSync, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { FhirIds } from '../../ports/fhir-ids.port.js';

const IV_BYTES = 16;
/** The IV and the 12 digits of an identity number. */
const PATIENT_ID_BYTES = IV_BYTES + 12;
const PATIENT_ID_CHARS = Math.ceil((PATIENT_ID_BYTES * 4) / 3);
const MEMO_SIZE = 10_000;
const NUMBER = /^[0-9]{12}$/;
// FHIR ids are [A-Za-z0-9\-\.]{1,64}: base64url with `.` for `_`.
const toFhirId = (bytes: Buffer): string => bytes.toString('base64url').replace(/_/g, '.');
const fromFhirId = (id: string): Buffer | undefined => {
  if (!/^[A-Za-z0-9\-.]{1,64}$/.test(id)) return undefined;
  const b64 = id.replace(/\./g, '_');
  const bytes = Buffer.from(b64, 'base64url');
  return bytes.toString('base64url') === b64 ? bytes : undefined;
};

const subKey = (secret: Buffer, purpose: string): KeyObject =>
  createSecretKey(Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `patient-data-access fhir ${purpose} v1`, 32)));

/**
 * Patient ids as a deterministic authenticated encryption of the identity number (SIV: the IV is an
 * HMAC of the number, the number is AES-256-CTR under that IV, and opening checks the IV again), so
 * any instance with the key reads an id back without a table, and an edited or forged id opens to
 * nothing. Written here rather than taken from a library because Node's crypto has the two
 * primitives and no maintained SIV package fits a 28-byte id; docs/fhir-api.md#ids says why an id
 * must be reversible (a client token's next request names the patient by it).
 */
export class KeyedFhirIds implements FhirIds {
  private readonly ivKey: KeyObject;
  private readonly encKey: KeyObject;
  private readonly digestKey: KeyObject;
  private readonly cursorKey: KeyObject;
  // Memos of the two pure functions, each a key only the process holds (BENCHMARKS.md part 10).
  private readonly patientIds = new Map<string, string>();
  private readonly digests = new Map<string, string>();

  constructor(secret: Buffer) {
    if (secret.length < 32) throw new TypeError('FHIR_ID_SECRET must be at least 32 bytes');
    this.ivKey = subKey(secret, 'patient-id iv');
    this.encKey = subKey(secret, 'patient-id enc');
    this.digestKey = subKey(secret, 'record digest');
    this.cursorKey = subKey(secret, 'page cursor');
  }

  patientId(identityNumber: string): string {
    const known = this.patientIds.get(identityNumber);
    if (known !== undefined) return known;
    const id = this.makePatientId(identityNumber);
    if (this.patientIds.size >= MEMO_SIZE) this.patientIds.clear();
    this.patientIds.set(identityNumber, id);
    return id;
  }

  private makePatientId(identityNumber: string): string {
    if (!NUMBER.test(identityNumber)) throw new TypeError('not an identity number');
    const iv = this.ivOf(identityNumber);
    const cipher = createCipheriv('aes-256-ctr', this.encKey, iv);
    return toFhirId(Buffer.concat([iv, cipher.update(identityNumber, 'latin1'), cipher.final()]));
  }

  identityNumberOf(patientId: string): string | undefined {
    const bytes = fromFhirId(patientId);
    if (bytes?.length !== PATIENT_ID_BYTES) return undefined;
    const iv = bytes.subarray(0, IV_BYTES);
    const decipher = createCipheriv('aes-256-ctr', this.encKey, iv);
    const number = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES)), decipher.final()]).toString('latin1');
    if (!NUMBER.test(number)) return undefined;
    return timingSafeEqual(iv, this.ivOf(number)) ? number : undefined;
  }

  // 28 bytes read canonically (38 characters): a record digest is 24 (32), a UUID 36 characters. The
  // length first: every record id of an answer is asked (patient-records.ts).
  hasPatientIdForm(id: string): boolean {
    return id.length === PATIENT_ID_CHARS && fromFhirId(id)?.length === PATIENT_ID_BYTES;
  }

  recordDigest(root: string, extension: string): string {
    const text = `${root}|${extension}`;
    let digest = this.digests.get(text);
    if (digest === undefined) {
      digest = toFhirId(this.mac(this.digestKey, text).subarray(0, 24));
      // Bounded: a patient's answer repeats its record ids (every part of a note is named from it).
      if (this.digests.size >= MEMO_SIZE) this.digests.clear();
      this.digests.set(text, digest);
    }
    return digest;
  }

  sealOffset(offset: number, binding: string): string {
    if (!Number.isSafeInteger(offset) || offset < 0) throw new TypeError('not an offset');
    const body = Buffer.alloc(8);
    body.writeBigUInt64BE(BigInt(offset));
    return Buffer.concat([body, this.cursorMac(body, binding)]).toString('base64url');
  }

  openOffset(cursor: string, binding: string): number | undefined {
    if (!/^[A-Za-z0-9_-]{32}$/.test(cursor)) return undefined;
    const bytes = Buffer.from(cursor, 'base64url');
    if (bytes.length !== 24 || bytes.toString('base64url') !== cursor) return undefined;
    const body = bytes.subarray(0, 8);
    if (!timingSafeEqual(bytes.subarray(8), this.cursorMac(body, binding))) return undefined;
    const offset = Number(body.readBigUInt64BE());
    return Number.isSafeInteger(offset) ? offset : undefined;
  }

  private ivOf(identityNumber: string): Buffer {
    return this.mac(this.ivKey, identityNumber).subarray(0, IV_BYTES);
  }

  private cursorMac(body: Buffer, binding: string): Buffer {
    const b = Buffer.from(binding, 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(b.length, 0);
    return createHmac('sha256', this.cursorKey).update(length).update(b).update(body).digest().subarray(0, 16);
  }

  private mac(key: KeyObject, text: string): Buffer {
    return createHmac('sha256', key).update(text, 'utf8').digest();
  }
}

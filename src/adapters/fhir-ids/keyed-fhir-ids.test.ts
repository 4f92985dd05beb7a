/**
 * The keyed ids of the FHIR API (docs/fhir-api.md#ids): a Patient id opens back to
 * its identity number with the key that made it and with no other; an edited id opens to nothing; only
 * identity numbers are made into ids; a page cursor opens only unedited and for the binding (caller,
 * patient, query) it was sealed for.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_PEOPLE, UNKNOWN_PATIENT_ID } from '../../dev/demo-data/people.js';
import { KeyedFhirIds } from './keyed-fhir-ids.js';

const SECRET = Buffer.from('unit test FHIR id secret, at least 32 bytes long');
const OTHER_SECRET = Buffer.from('another FHIR id secret, at least 32 bytes long!!');
const NUMBERS = [...DEMO_PEOPLE.map((p) => p.id), UNKNOWN_PATIENT_ID];
const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;
const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-.';
const CURSOR_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Every one-character edit of `text` to another character of `alphabet`, a few per position. */
function edits(text: string, alphabet: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) {
    for (const c of [alphabet[0], alphabet[27], alphabet[53], alphabet[63]]) {
      if (c !== undefined && c !== text[i]) out.push(`${text.slice(0, i)}${c}${text.slice(i + 1)}`);
    }
  }
  return out;
}

describe('KeyedFhirIds: Patient ids', () => {
  const ids = new KeyedFhirIds(SECRET);

  it('round trip: every demo number (a coordination number too) opens back from its id', () => {
    for (const n of NUMBERS) expect([n, ids.identityNumberOf(ids.patientId(n))]).toEqual([n, n]);
  });

  it('an id is a valid FHIR id without the number in it, one per number, the same from any instance with the key', () => {
    const made = NUMBERS.map((n) => ids.patientId(n));
    for (const [i, id] of made.entries()) {
      expect(id).toMatch(FHIR_ID);
      expect(id).not.toContain(NUMBERS[i]?.slice(2));
    }
    expect(new Set(made).size).toBe(NUMBERS.length);
    expect(NUMBERS.map((n) => new KeyedFhirIds(Buffer.from(SECRET)).patientId(n))).toEqual(made);
  });

  it('another key makes other ids, and opens none of this key\'s (nor this key any of its)', () => {
    const other = new KeyedFhirIds(OTHER_SECRET);
    for (const n of NUMBERS) {
      expect(other.patientId(n)).not.toBe(ids.patientId(n));
      expect(other.identityNumberOf(ids.patientId(n))).toBeUndefined();
      expect(ids.identityNumberOf(other.patientId(n))).toBeUndefined();
    }
  });

  it('tamper: every one-character edit, a cut or an extension of an id opens to nothing', () => {
    const id = ids.patientId(DEMO_PEOPLE[0]?.id ?? '');
    const tampered = [...edits(id, ID_CHARS), id.slice(0, -1), id.slice(1), `${id}A`, `A${id}`, id.toLowerCase(), id.toUpperCase()];
    expect(tampered.length).toBeGreaterThan(100);
    for (const t of tampered.filter((x) => x !== id)) expect([t, ids.identityNumberOf(t)]).toEqual([t, undefined]);
  });

  it('what is no id opens to nothing: empty, too long, characters FHIR ids do not have, a number itself', () => {
    for (const junk of ['', 'abc', 'A'.repeat(65), `${'A'.repeat(37)}_`, `${'A'.repeat(37)}/`, `${'A'.repeat(37)}+`, '191212121212', 'Patient/abc']) {
      expect([junk, ids.identityNumberOf(junk)]).toEqual([junk, undefined]);
    }
  });

  it('only a 12-digit identity number is made into an id', () => {
    for (const notANumber of ['', '19121212121', '1912121212123', '19121212-1212', '1212121212', 'abcdefghijkl', ' 191212121212', '191212121212\n']) {
      expect(() => ids.patientId(notANumber), JSON.stringify(notANumber)).toThrow(TypeError);
    }
    // The memo of made ids never makes a refused one acceptable the second time.
    expect(() => ids.patientId('abcdefghijkl')).toThrow(TypeError);
  });

  it('the form of a Patient id is told by its form alone: a genuine id, a forged one and another key\'s alike; a record id, a UUID, a cut or a non-canonical one not', () => {
    const other = new KeyedFhirIds(OTHER_SECRET);
    const genuine = NUMBERS.map((n) => ids.patientId(n));
    const forged = genuine.flatMap((id) => edits(id.slice(0, -1), ID_CHARS).map((e) => `${e}${id.slice(-1)}`));
    for (const id of [...genuine, ...forged, ...NUMBERS.map((n) => other.patientId(n))]) expect([id, ids.hasPatientIdForm(id)]).toEqual([id, true]);
    const id = genuine[0] ?? '';
    // 38 characters carry 228 bits for 224: the last character's 4 low bits are 0, and one with any set reads back otherwise.
    const last = ID_CHARS.indexOf(id.slice(-1));
    expect(last % 16).toBe(0);
    const nonCanonical = `${id.slice(0, -1)}${ID_CHARS[last + 1] ?? ''}`;
    const notOfForm = [
      ids.recordDigest('1.2.752.129.2.1.2.1', 'note-1'), '0b1e6c84-5a3f-4f6e-9d62-1f2a3b4c5d6e', 'no-such-resource-0', id.slice(0, -1), `${id}A`,
      `${id}AAAA`, nonCanonical, '191212121212', '', 'A'.repeat(65), `${id.slice(0, -1)}_`,
    ];
    for (const x of notOfForm) expect([x, ids.hasPatientIdForm(x)]).toEqual([x, false]);
  });

  it('a secret under 32 bytes is refused', () => {
    expect(() => new KeyedFhirIds(Buffer.alloc(31))).toThrow(/at least 32 bytes/);
  });
});

describe('KeyedFhirIds: record digests', () => {
  it('are valid FHIR ids, the same for the same record and key, different for another record or key', () => {
    const ids = new KeyedFhirIds(SECRET);
    const digest = ids.recordDigest('1.2.752.129.2.1.2.1', '191212121212-note-1');
    expect(digest).toMatch(FHIR_ID);
    expect(digest).not.toMatch(/\d{6}/);
    expect(ids.recordDigest('1.2.752.129.2.1.2.1', '191212121212-note-1')).toBe(digest);
    expect(ids.recordDigest('1.2.752.129.2.1.2.1', '191212121212-note-2')).not.toBe(digest);
    expect(ids.recordDigest('1.2.752.129.2.1.2.2', '191212121212-note-1')).not.toBe(digest);
    expect(new KeyedFhirIds(OTHER_SECRET).recordDigest('1.2.752.129.2.1.2.1', '191212121212-note-1')).not.toBe(digest);
  });
});

describe('KeyedFhirIds: page cursors', () => {
  const ids = new KeyedFhirIds(SECRET);
  const BINDING = JSON.stringify(['issuer', 'person-1212', '', ['191212121212'], 'Observation', [['_count', '2']], '']);

  it('open back to their offset for the binding they were sealed for', () => {
    for (const offset of [0, 1, 50, 500, 2 ** 40]) expect(ids.openOffset(ids.sealOffset(offset, BINDING), BINDING)).toBe(offset);
  });

  it('open to nothing for another binding: another caller, patient or query', () => {
    const cursor = ids.sealOffset(50, BINDING);
    for (const other of [BINDING.replace('person-1212', 'person-9876'), BINDING.replace('191212121212', '201701012393'), BINDING.replace('"2"', '"3"'), '']) {
      expect(other).not.toBe(BINDING);
      expect(ids.openOffset(cursor, other)).toBeUndefined();
    }
  });

  it('open to nothing when edited, cut or made with another key', () => {
    const cursor = ids.sealOffset(50, BINDING);
    const tampered = [...edits(cursor, CURSOR_CHARS), cursor.slice(1), `${cursor}A`, ''];
    for (const t of tampered.filter((x) => x !== cursor)) expect([t, ids.openOffset(t, BINDING)]).toEqual([t, undefined]);
    expect(ids.openOffset(new KeyedFhirIds(OTHER_SECRET).sealOffset(50, BINDING), BINDING)).toBeUndefined();
  });

  it('seal only whole, non-negative offsets', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2]) expect(() => ids.sealOffset(bad, BINDING)).toThrow(TypeError);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFhirJson, parseFhirJsonInSlices, writtenNumber } from '../../../src/adapters/ehr-fhir/fhir-json.js';
import { EhrError } from '../../../src/domain/ehr-error.js';
import { assertProperty } from '../../support/seeds.js';
import { json, space } from './support/json-texts.js';
import { numbersBeside, readBesideSources } from './support/json-oracle.js';

describe('FHIR JSON, decimals as written', () => {
  it('gives back each number as the JSON wrote it, and keeps it a number', () => {
    const parsed = parseFhirJson('{"a": {"value": 4.0}, "b": [5.40, 12, 1e2, 0.10, -0.0], "c": 12345678901234567890}') as {
      a: { value: number }; b: number[]; c: number;
    };
    expect(parsed.a.value).toBe(4);
    expect(writtenNumber(parsed.a, 'value')).toBe('4.0');
    expect(parsed.b.map((_, i) => writtenNumber(parsed.b, i))).toEqual(['5.40', '12', '1e2', '0.10', '-0.0']);
    expect(writtenNumber(parsed, 'c')).toBe('12345678901234567890');
  });

  it('writes a number made in code as JavaScript does, and nothing for what is not a number', () => {
    expect(writtenNumber({ value: 4 }, 'value')).toBe('4');
    expect(writtenNumber({ value: '4.0' }, 'value')).toBeUndefined();
  });

  it('takes a number of 40 digits as written, and refuses one of more (a malformed answer) wherever it stands', () => {
    const forty = `1234567890123456789.${'0'.repeat(20)}1`;
    const parsed = parseFhirJson(`{"v": ${forty}, "e": 1e-39}`) as { v: number };
    expect(writtenNumber(parsed, 'v')).toBe(forty);
    for (const number of [`${forty}1`, `-${'9'.repeat(41)}`, `0.${'0'.repeat(40)}1`, `1.5e${'0'.repeat(39)}1`, '7'.repeat(4_000_000)]) {
      expect(() => parseFhirJson(`{"a": [{"value": ${number}}]}`), number.slice(0, 50)).toThrow(/more than 40 digits/);
      expect(() => parseFhirJson(number), number.slice(0, 50)).toThrow(/more than 40 digits/);
    }
  });

  it('gives every number as its source was written, whether or not the text needed the reviver (property)', async () => {
    // parseFhirJson spares the reviver when no number needs it; a string that reads like a number
    // (`"a: 4.0, b"`) must never make a number that does need it pass unnoticed.
    await assertProperty(fc.property(json, space, (text, around) => {
      const whole = `${around}${text}${around}`;
      const oracle = readBesideSources(whole);
      const read = parseFhirJson(whole);
      expect(JSON.stringify(read)).toBe(JSON.stringify(oracle.value));
      expect(numbersBeside(read, oracle.value, oracle.sources).filter(([a, b]) => a !== b)).toEqual([]);
    }), { seeds: [5151, 5152], numRuns: 2000 });
  });

  it('notes a number written otherwise than JavaScript writes it beside strings that look like numbers', () => {
    const parsed = parseFhirJson('{"note": "dose: 4.0, then [2.50]", "system": "urn:oid:1.2.752.129.2.1.4.1", "value": 2.50, "n": [-0, 12]}') as {
      value: number; n: number[];
    };
    expect([writtenNumber(parsed, 'value'), writtenNumber(parsed.n, 0), writtenNumber(parsed.n, 1)]).toEqual(['2.50', '-0', '12']);
  });

  it('refuses nesting deeper than the reviver can walk, as when every answer went through it', () => {
    // JSON.parse alone reads 100,000 levels; the reviver's walk overflows the stack (RangeError), a refusal.
    for (const text of [`${'['.repeat(100_000)}${']'.repeat(100_000)}`, `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`]) {
      expect(() => parseFhirJson(text)).toThrow(EhrError);
    }
  });

  it('refuses what is not JSON as a bad response', () => {
    expect(() => parseFhirJson('<html>')).toThrow(EhrError);
    expect(() => parseFhirJson('{"a": 1')).toThrow(EhrError);
  });
});

describe('FHIR JSON, only characters a FHIR string may hold (H8)', () => {
  // Escaped as the JSON text has them: a server writes a control character or a lone surrogate as `\uXXXX`.
  const UNFIT = ['a\\u0000b', 'a\\uD800b', 'b\\uDC00', '\\u0001', '\\uFFFE', '\uFFFF', 'x\\by', '\\f'];
  const FIT = ['tab\\tCR\\rLF\\n', '\\uD83D\\uDE00 \u{1F600}', 'r\\u00e4ksm\\u00f6rg\\u00e5s', 'a\\\\u0000b'];
  const inResource = (text: string) => `{"resourceType":"Observation","valueString":"${text}","note":[{"text":"ok"}]}`;

  it.each(UNFIT)('refuses %s, in a value or a member name, whole or in pieces', async (text) => {
    expect(() => parseFhirJson(inResource(text))).toThrow(/FHIR answer refused: a string with a character FHIR does not allow/);
    expect(() => parseFhirJson(`{"${text}": 1}`)).toThrow(/a character FHIR does not allow/);
    await expect(parseFhirJsonInSlices(inResource(text), { pieceBytes: 8, sliceMs: 0 })).rejects.toThrow(/a character FHIR does not allow/);
    await expect(parseFhirJsonInSlices(`{"a":{"${text}":[1]}}`, { pieceBytes: 4, sliceMs: 0 })).rejects.toThrow(/a character FHIR does not allow/);
  });

  it('refuses bytes that are no UTF-8, never reading them as U+FFFD', async () => {
    for (const bad of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xe5, 0x6b]]) {
      const bytes = Buffer.concat([Buffer.from('{"resourceType":"Observation","valueString":"r'), Buffer.from(bad), Buffer.from('ksm"}')]);
      await expect(parseFhirJsonInSlices(bytes, { sliceMs: 0 })).rejects.toThrow(/FHIR answer refused: not UTF-8/);
      await expect(parseFhirJsonInSlices(bytes, { pieceBytes: 8, sliceMs: 0 })).rejects.toThrow(/FHIR answer refused: not UTF-8/);
    }
    expect(await parseFhirJsonInSlices(Buffer.from('{"valueString":"r\\u00e4k\u00e5\u{1F600}"}'), { sliceMs: 0 })).toEqual({ valueString: 'r\u00e4k\u00e5\u{1F600}' });
  });

  it.each(FIT)('reads %s as written', async (text) => {
    const expected = JSON.parse(`"${text}"`) as string;
    expect((parseFhirJson(inResource(text)) as { valueString: string }).valueString).toBe(expected);
    expect((await parseFhirJsonInSlices(inResource(text), { pieceBytes: 8, sliceMs: 0 }) as { valueString: string }).valueString).toBe(expected);
  });
});

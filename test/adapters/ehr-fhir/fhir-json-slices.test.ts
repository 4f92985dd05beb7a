/**
 * Issue 34 item 5: a FHIR page is parsed in slices (src/adapters/ehr-fhir/json-pieces.ts,
 * parseFhirJsonInSlices), never holding the event loop for the whole page, and gives exactly what
 * its bytes decoded and read by one JSON.parse with the decimal-keeping reviver give (parseFhirJson):
 * the same values, the same decimals as written, the same refusals. The pieces are made tiny here so
 * that every text is cut at every level.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFhirJson, parseFhirJsonInSlices, writtenNumber } from '../../../src/adapters/ehr-fhir/fhir-json.js';
import { MAX_DEPTH } from '../../../src/adapters/ehr-fhir/json-pieces.js';
import { EhrError } from '../../../src/domain/ehr-error.js';
import { turnsWhile } from '../../support/event-loop-turns.js';
import { conditionPage, MIB } from './support/large-page.js';
import { assertProperty } from '../../support/seeds.js';
import { json, space } from './support/json-texts.js';
import { numbersBeside, readBesideSources } from './support/json-oracle.js';

/** Every number in `a` and `b` (parallel trees) as its JSON wrote it, in document order. */
function numbersOf(a: unknown, b: unknown, out: [string | undefined, string | undefined][] = []): [string | undefined, string | undefined][] {
  if (a === null || typeof a !== 'object') return out;
  for (const key of Object.keys(a)) {
    const [x, y] = [(a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]];
    if (typeof x === 'number') out.push([writtenNumber(a, key), writtenNumber(b as object, key)]);
    else numbersOf(x, y, out);
  }
  return out;
}

/**
 * The two values are the same JSON, number for number as written. (Not toStrictEqual: it takes an
 * own member named "constructor" for the object's type.)
 */
function expectSame(sliced: unknown, whole: unknown): void {
  expect(JSON.stringify(sliced)).toBe(JSON.stringify(whole));
  expect(numbersOf(sliced, whole).filter(([a, b]) => a !== b)).toEqual([]);
}

/** The JSON text of what a parse gave, or the failure it was refused with. */
const outcome = async (parse: () => unknown): Promise<string> => {
  try {
    return JSON.stringify({ value: await parse() });
  } catch (err) {
    if (!(err instanceof EhrError)) throw err;
    return `refused: ${err.failure}`;
  }
};

describe('parseFhirJsonInSlices: exactly JSON.parse with the reviver, piece by piece', () => {
  it('gives the same value and the same written decimals, however the text is cut (property)', async () => {
    await assertProperty(fc.asyncProperty(json, space, fc.integer({ min: 1, max: 40 }), async (text, around, pieceBytes) => {
      const bytes = Buffer.from(`${around}${text}${around}`);
      const sliced = await parseFhirJsonInSlices(bytes, { pieceBytes, sliceMs: 0 });
      expectSame(sliced, parseFhirJson(bytes.toString()));
      // And to what JSON.parse saw, number by number: each piece may be read with or without the reviver.
      const oracle = readBesideSources(bytes.toString());
      expect(numbersBeside(sliced, oracle.value, oracle.sources).filter(([a, b]) => a !== b)).toEqual([]);
    }), { seeds: [4321, 4322, 4323], numRuns: 400 });
  });

  it('refuses what JSON.parse refuses and reads the rest alike: a text with one character taken out or put in (property)', async () => {
    const edit = fc.tuple(json, fc.nat(), fc.constantFrom('', ',', ':', '[', ']', '{', '}', '"', '\\', ' ', 'x', '1', '.', '-', '\u0001', 'å', '\u{1F600}'));
    await assertProperty(fc.asyncProperty(edit, fc.integer({ min: 1, max: 40 }), async ([text, at, put], pieceBytes) => {
      const i = at % (text.length + 1);
      const changed = put === '' ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + put + text.slice(i);
      // As the bytes of an answer (a lone surrogate left by the edit is U+FFFD either way).
      const bytes = Buffer.from(changed);
      expect(await outcome(() => parseFhirJsonInSlices(bytes, { pieceBytes, sliceMs: 0 }))).toBe(await outcome(() => parseFhirJson(bytes.toString())));
    }), { seeds: [4331, 4332, 4333], numRuns: 600 });
  });

  it('keeps "__proto__" an own member at a cut level, as JSON.parse does, and pollutes nothing', async () => {
    const text = `{"__proto__": {"polluted": "yes"}, "padding": "${'x'.repeat(100)}", "a": [{"__proto__": {"isAdmin": true}}]}`;
    const sliced = await parseFhirJsonInSlices(text, { pieceBytes: 8, sliceMs: 0 }) as Record<string, unknown>;
    expectSame(sliced, parseFhirJson(text));
    expect(Object.getPrototypeOf(sliced)).toBe(Object.prototype);
    expect(Object.keys(sliced)).toEqual(['__proto__', 'padding', 'a']);
    const probe = {} as Record<string, unknown>;
    expect([probe.polluted, probe.isAdmin]).toEqual([undefined, undefined]);
  });

  it('refuses a number of more than 40 digits, and nesting deeper than MAX_DEPTH, wherever the text is cut', async () => {
    for (const pieceBytes of [8, undefined]) {
      await expect(parseFhirJsonInSlices(`[${'1,'.repeat(50)}1${'0'.repeat(40)}]`, { pieceBytes })).rejects.toThrow(/more than 40 digits/);
      await expect(parseFhirJsonInSlices(`${'['.repeat(MAX_DEPTH + 1)}${']'.repeat(MAX_DEPTH + 1)}`, { pieceBytes })).rejects.toThrow(/nested deeper/);
      expect(await parseFhirJsonInSlices(`${'['.repeat(MAX_DEPTH)}${']'.repeat(MAX_DEPTH)}`, { pieceBytes })).toBeInstanceOf(Array);
    }
    // The hostile-upstream suite's 200,000 levels: refused in one pass, no stack walked.
    await expect(parseFhirJsonInSlices(`${'['.repeat(200_000)}${']'.repeat(200_000)}`)).rejects.toThrow(/nested deeper/);
  });
});

describe('parseFhirJsonInSlices on a 4 MiB page', () => {
  it('gives the event loop turns while it parses, and the value one JSON.parse gives', async () => {
    const page = conditionPage(4 * MIB);
    expect(page.length).toBeGreaterThan(4 * MIB - 1024);
    // Other work waiting on the loop runs between pieces: with no time between turns allowed, each piece is followed by one.
    const { result: sliced, turns } = await turnsWhile(() => parseFhirJsonInSlices(page, { sliceMs: 0 }));
    // 8 KiB pieces: a 4 MiB page is more than 500 of them.
    expect(turns).toBeGreaterThan(500);
    const whole = parseFhirJson(page);
    expectSame(sliced, whole);
    expect(numbersOf(sliced, whole).filter(([a]) => a?.endsWith('.0')).length).toBeGreaterThan(100);
  });

  it('reads a page of one long array of numbers, and one of one long string, in slices too', async () => {
    // Every thousandth number written with a trailing zero, so that its text is kept.
    const numbers = `{"resourceType":"Bundle","padding":[${Array.from({ length: 250_000 }, (_, k) => `${k % 97}.5${k % 1000 === 0 ? '0' : ''}`).join(',')}]}`;
    const text = JSON.stringify({ resourceType: 'Bundle', padding: 'x\u00e5\n'.repeat(1_400_000) });
    for (const page of [numbers, text]) {
      expect(page.length).toBeGreaterThan(MIB);
      const sliced = await parseFhirJsonInSlices(page);
      expectSame(sliced, parseFhirJson(page));
      if (page === numbers) expect([0, 1, 249_000].map((k) => writtenNumber((sliced as { padding: number[] }).padding, k))).toEqual(['0.50', '1.5', `${249_000 % 97}.50`]);
    }
  });

  it('gives up when the call\'s deadline has passed, between two pieces', async () => {
    const deadline = new AbortController();
    const parsing = parseFhirJsonInSlices(conditionPage(MIB), { sliceMs: 0, signal: deadline.signal });
    deadline.abort();
    await expect(parsing).rejects.toMatchObject({ failure: 'timeout' });
  });
});

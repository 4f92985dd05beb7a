/**
 * Issue 56 item 3: the table a tag is matched in place against (xml-names.ts, knownNames and
 * NameReader.readKnown), grouped by a name's first character and then by the character where the
 * group's names differ most, finds exactly the name the plain search of every candidate finds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { knownId, knownNames, NameReader } from '../../../src/adapters/ehr-xml/xml-names.js';
import { NAME_CHAR } from '../../../src/adapters/ehr-xml/xml-text.js';
import { assertProperty } from '../../support/seeds.js';

/** What readKnown promises, by trying every name: the one the text holds at `from`, ending where it ends. */
function plainSearch(names: readonly string[], t: string, from: number): number {
  return names.findIndex((name) => {
    const after = t.charCodeAt(from + name.length);
    return t.startsWith(name, from) && !(after >= 128 || NAME_CHAR[after] === 1 || after === 58);
  });
}

/**
 * Names much alike, as a shape's are (`contactId`, `contactPerformingUnit`, `careContactId`): a few
 * letters, some prefixes shared, beginning with one of two, so a table holds two groups.
 */
const LETTERS = ['c', 'o', 'n', 'I', 'd', 'U', 'u', '-', '.', '_', 'é'];
const nameArb = fc.tuple(fc.constantFrom('c', 'd'), fc.array(fc.constantFrom(...LETTERS), { minLength: 0, maxLength: 6 }))
  .map(([first, rest]) => [first, ...rest].join(''));

describe('names matched in place (issue 56 item 3)', () => {
  it('finds the name the plain search finds, for any names and any text after the `<`, in place and read whole', async () => {
    await assertProperty(fc.property(
      fc.uniqueArray(nameArb, { minLength: 1, maxLength: 12 }),
      fc.array(fc.constantFrom(...LETTERS, '>', ' ', '/', ':', '\u00e9', '='), { maxLength: 9 }),
      fc.nat(3),
      (names, tail, pick) => {
        const known = knownNames(names.map((name, id) => [name, id]));
        // Half the texts begin with one of the names.
        const t = `<${pick < 2 ? (names[pick % names.length] as string) : (pick % 2 === 0 ? 'c' : 'd')}${tail.join('')}`;
        const reader = new NameReader();
        const id = reader.readKnown(t, 1, known);
        expect(id).toBe(plainSearch(names, t, 1));
        if (id >= 0) expect([reader.end, reader.colon, reader.known]).toEqual([1 + (names[id] as string).length, -1, names[id]]);
        // A name read whole is looked up by its exact range: the index of that very name, or -1.
        let whole: NameReader | undefined = new NameReader();
        try {
          whole.read(t, 1);
        } catch {
          whole = undefined;
        }
        if (whole !== undefined && whole.colon < 0) expect(knownId(known, t, 1, whole.end)).toBe(names.indexOf(t.slice(1, whole.end)));
      },
    ), { seeds: [5603, 5604, 5605], numRuns: 3000 });
  });

  it('tries a tag against the names that share its character at the group\'s place, not every name of its first letter', () => {
    const names = ['contactId', 'contactPerformingUnit', 'contactReason', 'careContactId', 'codeSystem'];
    const known = knownNames(names.map((name, id) => [name, id]));
    const group = known['c'.charCodeAt(0)];
    // At 7 (the shortest name's last place but one): I, P, R, and t for the last two.
    expect(group?.at).toBe(7);
    expect(group?.byChar.flatMap((list, c) => (list === undefined ? [] : [[String.fromCharCode(c), list.filter((_, i) => i % 2 === 0)]]))).toEqual([
      ['I', ['contactId']], ['P', ['contactPerformingUnit']], ['R', ['contactReason']], ['t', ['careContactId', 'codeSystem']],
    ]);
    const reader = new NameReader();
    for (const [id, name] of names.entries()) expect(reader.readKnown(`<${name}>`, 1, known)).toBe(id);
    for (const text of ['<contactI>', '<contactIdX>', '<co', '<contactId:x>']) expect(reader.readKnown(text, 1, known)).toBe(-1);
  });
});

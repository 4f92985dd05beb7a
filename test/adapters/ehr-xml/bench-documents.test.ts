/**
 * Issue 56 item 3: every document `npm run bench:mapper` measures the reader on (the demo patient's
 * own and the generated bench documents, bench/mapper-cases.ts) is mapped by the reader exactly as
 * the differential oracle maps it (reference/: saxes judges it, fast-xml-parser builds its tree, the
 * walk maps it), from its text and from its bytes. So no figure of the bench is bought with a
 * different answer: whatever the reader does to be fast, the records are the oracle's, key order
 * included.
 */
import { describe, expect, it } from 'vitest';
import { mapDocument } from '../../../src/adapters/ehr-xml/index.js';
import { ZONE } from '../../../bench/fixtures.js';
import { benchCases } from './bench-cases.js';
import { referenceMapDocument } from './reference/reference-engine.js';

const casesNow = benchCases();

describe('issue 56 item 3: the documents the mapper bench measures', () => {
  it('are all there: the demo patient\'s, the bench\'s and the mirror documents, up to a megabyte', () => {
    const cases = casesNow();
    expect(cases.filter((c) => c.name.startsWith('demo ')).length).toBe(3);
    expect(cases.length).toBeGreaterThanOrEqual(15);
    expect(Math.max(...cases.map((c) => c.xml.length))).toBeGreaterThan(1_000_000);
  });

  it('are each mapped, from text and from bytes, to exactly the records the oracle maps it to', () => {
    const cases = casesNow();
    for (const c of cases) {
      const options = { zone: ZONE, expectedPatientId: c.patient };
      const expected = JSON.stringify(referenceMapDocument(c.kind, c.xml, options));
      expect(JSON.stringify(mapDocument(c.kind, c.xml, options)), c.name).toBe(expected);
      expect(JSON.stringify(mapDocument(c.kind, Buffer.from(c.xml, 'utf8'), options)), `${c.name}, from bytes`).toBe(expected);
    }
  }, 120_000);
});

/**
 * `xsi:nil="true"` means absent (docs/upstream-ehr.md#1-rules-every-document-follows): nothing else of such an element
 * is read, its other attributes neither. `npm run fuzz` (PDAS_FUZZ_SEED=1885956549, the mirror differential of
 * attention signals): `<ReasessmentDateTime xsi:nil="true" value="20250230120000"/>` refused the whole document as a
 * bad time, where the oracle, and the rule, take the element as absent. Failed before: "bad time value in value".
 */
import { describe, expect, it } from 'vitest';
import { DOCUMENT_KINDS } from '../../../src/adapters/ehr-xml/documents.js';
import { example, mapExample } from './fixtures.js';

const NIL = 'xsi:nil="true"';
/** Attributes that would each refuse the document, or say something, were they read. */
const UNREAD = [' value="20250230120000"', ' value="yesterday"', ' extension="" root="not-an-oid"', ' codeSystem="x"'];

const withNil = DOCUMENT_KINDS.flatMap((kind) => {
  let xml: string;
  try {
    xml = example(`${kind}.xml`);
  } catch {
    return [];
  }
  return xml.includes(NIL) ? [{ kind, xml }] : [];
});

describe('an element xsi:nil makes absent', () => {
  it('is found in several documents\' examples', () => {
    expect(withNil.map((d) => d.kind).length).toBeGreaterThanOrEqual(5);
  });

  it.each(withNil)('$kind: maps as without its other attributes, before or after xsi:nil', ({ kind, xml }) => {
    const expected = JSON.stringify(mapExample(kind)(xml));
    for (const attribute of UNREAD) {
      for (const marked of [xml.replace(NIL, `${NIL}${attribute}`), xml.replace(NIL, `${attribute.trim()} ${NIL}`)]) {
        expect(marked).not.toBe(xml);
        expect(JSON.stringify(mapExample(kind)(marked))).toBe(expected);
      }
    }
  });
});

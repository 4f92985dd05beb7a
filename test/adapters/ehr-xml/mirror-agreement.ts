/**
 * Issue 13: the mirror reader against its independent oracle (saxes + fast-xml-parser + a walk of the
 * schema itself, mirror-oracle.ts), shared by mirror-differential.test.ts (the examples) and
 * mirror-generated.test.ts (documents generated from the schemas).
 */
import { expect } from 'vitest';
import { MalformedDocumentError, mapDocument } from '../../../src/adapters/ehr-xml/index.js';
import { DOCUMENT_KINDS, DOCUMENTS, type DocumentKind } from '../../../src/adapters/ehr-xml/documents.js';
import type { MirrorOrigin } from '../../../src/adapters/ehr-xml/mirror-document.js';
import { ZONE } from './fixtures.js';
import { oracleMirror, type Schema } from './mirror-oracle.js';

export interface Mirror { kind: DocumentKind; file: string; root: string; item: Schema; version?: string }

/** Every document read as a mirror of its answer's schema (mirrorReading keeps what it was made from). */
export const MIRRORS: Mirror[] = DOCUMENT_KINDS.flatMap((kind) => {
  const origin = (DOCUMENTS[kind].reading as { mirror?: MirrorOrigin }).mirror;
  return origin === undefined ? [] : [{
    kind, file: `${kind}.xml`, root: origin.root, item: origin.item as Schema,
    ...(origin.versionMember === undefined ? {} : { version: origin.versionMember }),
  }];
});

type Outcome = { ok: true; json: unknown } | { ok: false };

function outcome(run: () => unknown): Outcome {
  try {
    // Through JSON, so key order and undefined members do not count, only the answer does.
    return { ok: true, json: JSON.parse(JSON.stringify(run())) as unknown };
  } catch (err) {
    if (err instanceof MalformedDocumentError) return { ok: false };
    throw err;
  }
}

/** The reader and the oracle on one document; true when both accepted it. */
export function expectSame(m: Mirror, xml: string): boolean {
  const read = outcome(() => mapDocument(m.kind, xml, { zone: ZONE }));
  const oracle = outcome(() => oracleMirror(xml, m.root, m.item, m.version));
  expect(read, xml).toEqual(oracle);
  return read.ok;
}


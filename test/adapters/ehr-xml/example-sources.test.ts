/**
 * Issue 15 item 2: the upstream example tests travel with the repository. The project owns one
 * document per upstream example (test/fixtures/upstream); where the shared contract's examples sit
 * beside the repository (CI), the project's documents must set the same traps, i.e. map to exactly
 * the same records, so a change of the shared examples cannot leave the project's tests behind.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapDocument, mapFault, mapRelationships, mapResultRecord } from '../../../src/adapters/ehr-xml/index.js';
import { DOCUMENT_KINDS, DOCUMENTS, type DocumentKind } from '../../../src/adapters/ehr-xml/documents.js';
import { OPERATIONS } from '../../../src/domain/operations/table.js';
import {
  EXAMPLE_FREE, PROJECT_EXAMPLES_DIR, REPOSITORY_ROOT, SHARED_EXAMPLES_DIR, sharedExamplesPresent,
} from '../../support/upstream-examples.js';
import { ZONE } from './fixtures.js';

/** Every document of the upstream interface (docs/upstream-ehr.md), by the file it is kept in. */
const READS: [DocumentKind, string][] = DOCUMENT_KINDS.map((kind) => [kind, `${kind}.xml`]);
const OTHERS: [(xml: string) => unknown, string][] = [
  [mapRelationships, 'relationships.xml'], [mapResultRecord, 'result-ok.xml'], [mapFault, 'fault.xml'],
];
const FILES = [...READS, ...OTHERS].map(([, file]) => file).sort();
/** The documents of the contract's reads: a read a region adds (no number) has no shared example. */
const CONTRACT_FILES = FILES.filter((file) => !READS.some(([kind, f]) => f === file && OPERATIONS[DOCUMENTS[kind].read].number === undefined));

const xmlFiles = (dir: string): string[] => readdirSync(dir).filter((f) => f.endsWith('.xml')).sort();
const read = (dir: string, file: string): string => readFileSync(path.join(dir, file), 'utf8');

/** What a consumer makes of a document: its records, or the reason it refuses it. */
function mapped(dir: string, file: string): string {
  const xml = read(dir, file);
  const kind = READS.find(([, f]) => f === file)?.[0];
  if (kind !== undefined) return JSON.stringify(mapDocument(kind, xml, { zone: ZONE }));
  const other = OTHERS.find(([, f]) => f === file);
  if (!other) throw new Error(`no mapping for ${file}`);
  return JSON.stringify(other[0](xml));
}

describe('issue 15 item 2: the project owns its upstream example documents', () => {
  it('holds one document of each upstream kind, mirror documents included, each opening with the traps it sets', () => {
    expect(xmlFiles(PROJECT_EXAMPLES_DIR)).toEqual(FILES);
    for (const file of FILES) {
      const head = read(PROJECT_EXAMPLES_DIR, file).slice(0, 600);
      expect(head, file).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\s*<!-- The project's /);
      expect(head, file).toContain('docs/upstream-ehr.md');
    }
  });

  it('carries journal notes of XSD minor 3.1 (the value as text) beside the 3.0 form', () => {
    const xml = read(PROJECT_EXAMPLES_DIR, 'journalnotes.xml');
    expect(xml).toMatch(/<Value JournalValueType="Text">[^<]+<\/Value>/);
    expect(xml).toMatch(/<Value>\s*<JournalValueType>/);
    expect(xml).toContain('version="3.1"');
    expect(xml).toContain('version="3.0"');
  });
});

if (sharedExamplesPresent()) {
  describe(`issue 15 item 2: the shared upstream examples are present (${SHARED_EXAMPLES_DIR})`, () => {
    it('the shared examples are the project\'s documents of the contract\'s reads (a read a region adds has none there)', () => {
      expect(xmlFiles(SHARED_EXAMPLES_DIR)).toEqual(CONTRACT_FILES);
    });

    it.each(CONTRACT_FILES)('%s: the project document maps to the same records as the shared one', (file) => {
      expect(mapped(PROJECT_EXAMPLES_DIR, file)).toBe(mapped(SHARED_EXAMPLES_DIR, file));
    });
  });
} else {
  describe(`issue 15 item 2: the shared upstream examples are absent (${SHARED_EXAMPLES_DIR}): the example tests ran on the project's own documents only`, () => {
    it('every project document still maps', () => {
      for (const file of FILES) expect(() => mapped(PROJECT_EXAMPLES_DIR, file), file).not.toThrow();
    });
  });
}

/** The source of `file` and of every test module it reaches by a relative import, fixtures.ts (which defines the readers) aside. */
function reachedSources(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file) || file.endsWith(`${path.sep}fixtures.ts`) || file.endsWith(`${path.sep}upstream-examples.ts`) || !file.includes(`${path.sep}test${path.sep}`)) return [];
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  const imports = [...text.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)].map((m) => path.resolve(path.dirname(file), `${m[1]}.ts`));
  return [text, ...imports.flatMap((i) => reachedSources(i, seen))];
}
/** A call of what reads an example through examplesDir() (fixtures.ts, upstream-examples.ts), in code rather than a comment. */
const READS_AN_EXAMPLE = /(?<![.\w])(?:example|mapExample|examplesDir)\(/;
const code = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '');
const readsAnExample = (file: string): boolean =>
  reachedSources(path.join(REPOSITORY_ROOT, file)).some((text) => READS_AN_EXAMPLE.test(code(text)));

describe('the example-driven files that run once (EXAMPLE_FREE, vitest.config.ts)', () => {
  it('read no example, by themselves or through the test modules they import', () => {
    expect(EXAMPLE_FREE.filter((file) => !existsSync(path.join(REPOSITORY_ROOT, file)))).toEqual([]);
    expect(EXAMPLE_FREE.filter(readsAnExample)).toEqual([]);
    // Not a check that passes on anything: a file that reads examples is found.
    expect(readsAnExample('test/adapters/ehr-xml/fast-reader.test.ts')).toBe(true);
  });
});

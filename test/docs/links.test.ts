/**
 * Issue 15 item 3: the documents travel with the repository. Every path that README.md, the other
 * top-level documents and docs/ point to, as a Markdown link or as a path in a code span, exists in
 * the repository, and none leads outside it (the shared contract folder beside the repository is not
 * part of a clone). A link to a heading (`file.md#anchor`) must find that heading.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeProblem, linkProblem, references, type Reference } from '../support/markdown-links.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';

const documents = [
  ...readdirSync(REPOSITORY_ROOT).filter((f) => f.endsWith('.md')),
  ...readdirSync(path.join(REPOSITORY_ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f)),
  // Each read's own documentation, in its folder (issue 43 item 10).
  ...readdirSync(path.join(REPOSITORY_ROOT, 'src', 'reads'), { withFileTypes: true }).filter((e) => e.isDirectory())
    .map((e) => path.join('src', 'reads', e.name, 'README.md')),
].sort();

const all = documents.flatMap(references);
const where = (r: Reference): string => `${r.document}:${r.line} ${r.target}`;

describe('issue 15 item 3: README.md and docs/ point only to files in the repository', () => {
  it('reads the documents, docs/ among them', () => {
    expect(documents).toEqual(expect.arrayContaining([
      'README.md', 'docs/contract.md', 'docs/upstream-ehr.md', 'docs/threat-model.md', 'docs/operations.md',
      'src/reads/diagnoses/README.md',
    ]));
    expect(all.filter((r) => r.kind === 'link').length).toBeGreaterThan(10);
  });

  it('every Markdown link leads to a file (and heading) in the repository', () => {
    expect(all.filter((r) => r.kind === 'link').flatMap((r) => {
      const problem = linkProblem(r);
      return problem === undefined ? [] : [`${where(r)}: ${problem}`];
    })).toEqual([]);
  });

  it('every repository path in a code span exists, and none leads outside', () => {
    expect(all.filter((r) => r.kind === 'code').flatMap((r) => {
      const problem = codeProblem(r);
      return problem === undefined ? [] : [`${where(r)}: ${problem}`];
    })).toEqual([]);
  });

  it('the checks catch a missing file, a path outside and a missing heading', () => {
    const r = (target: string, kind: Reference['kind']): Reference => ({ document: 'docs/contract.md', line: 1, target, kind });
    expect(linkProblem(r('operations.md#tls-and-mutual-tls', 'link'))).toBeUndefined();
    expect(linkProblem(r('nowhere.md', 'link'))).toBe('missing');
    expect(linkProblem(r('../../shared/CONTRACT.md', 'link'))).toBe('outside the repository');
    expect(linkProblem(r('operations.md#no-such-heading', 'link'))).toBe('no heading #no-such-heading');
    expect(linkProblem(r('https://example.org/spec', 'link'))).toBe('an address outside the repository');
    expect(linkProblem(r('http://127.0.0.1:8080/docs', 'link'))).toBeUndefined();
    expect(codeProblem(r('../shared/upstream/README.md', 'code'))).toBe('outside the repository');
    expect(codeProblem(r('src/no-such-file.ts', 'code'))).toBe('missing');
    expect(codeProblem(r('src/start/config.ts', 'code'))).toBeUndefined();
    expect(codeProblem(r('DATA_DIR/audit/audit-trail.jsonl', 'code'))).toBeUndefined();
  });
});

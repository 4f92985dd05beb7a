/**
 * Issue 21: a reference in the code leads somewhere a reader of the repository can follow. Every
 * `docs/<file>.md#<anchor>` that a comment, a test name or a message in src/, test/, scripts/ or
 * bench/ cites names a heading of that file (a list `docs/a.md#x, #y` cites #y in the same file),
 * and nothing cites the shared contract documents a clone does not have (`CONTRACT §N`, the upstream
 * `README §N`, `THREATS #N`, `spec/…`): the repository's docs/ reproduce what the code relies on.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchors } from '../support/markdown-anchors.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';

const CODE = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src', 'test', 'scripts', 'bench'], { cwd: REPOSITORY_ROOT, encoding: 'utf8' })
  .split('\n').filter((f) => /\.(ts|mjs)$/.test(f) && !f.startsWith('test/http/openapi-client/generated/') && f !== 'test/docs/code-references.test.ts');

const CITATION = /(docs\/[a-z0-9-]+\.md)#([a-z0-9-]+)((?:, #[a-z0-9-]+)*)/g;
// Built from pieces, so this file does not cite what it forbids.
const OUTSIDE = new RegExp(['CONTRACT(\\.md)? ?\u00a7', 'README(\\.md)? ?\u00a7', 'THREATS ?#\\d', 'spec/vendor-layouts', 'FHIR\\.md ?\u00a7'].join('|'));

interface Citation { where: string; file: string; anchor: string }

/** Every docs anchor `text` cites. */
export function citations(text: string, where: string): Citation[] {
  const found: Citation[] = [];
  for (const m of text.matchAll(CITATION)) {
    const file = m[1] as string;
    for (const anchor of [m[2] as string, ...[...(m[3] ?? '').matchAll(/#([a-z0-9-]+)/g)].map((a) => a[1] as string)]) {
      found.push({ where, file, anchor });
    }
  }
  return found;
}

const known = new Map<string, Set<string>>();
function problem(c: Citation): string | undefined {
  const absolute = path.join(REPOSITORY_ROOT, c.file);
  if (!existsSync(absolute)) return `${c.where}: ${c.file} is missing`;
  const headings = known.get(c.file) ?? anchors(absolute);
  known.set(c.file, headings);
  return headings.has(c.anchor) ? undefined : `${c.where}: ${c.file} has no heading #${c.anchor}`;
}

describe('issue 21: references in the code resolve inside the repository', () => {
  const lines = CODE.flatMap((file) => readFileSync(path.join(REPOSITORY_ROOT, file), 'utf8').split('\n').map((text, i) => ({ where: `${file}:${i + 1}`, text })));

  it('every docs/<file>.md#<anchor> the code cites is a heading of that file', () => {
    const cited = lines.flatMap((l) => citations(l.text, l.where));
    expect(cited.length).toBeGreaterThan(50);
    expect(cited.map(problem).filter((p) => p !== undefined)).toEqual([]);
  });

  it('no code cites a document a clone does not have', () => {
    expect(lines.filter((l) => OUTSIDE.test(l.text)).map((l) => l.where)).toEqual([]);
  });

  it('the check catches a missing heading, a missing file and a second anchor of a list', () => {
    expect(citations('see docs/contract.md#errors, #reads', 'x').map((c) => c.anchor)).toEqual(['errors', 'reads']);
    expect(problem({ where: 'x', file: 'docs/contract.md', anchor: 'errors' })).toBeUndefined();
    expect(problem({ where: 'x', file: 'docs/contract.md', anchor: 'no-such-heading' })).toBe('x: docs/contract.md has no heading #no-such-heading');
    expect(problem({ where: 'x', file: 'docs/nowhere.md', anchor: 'a' })).toBe('x: docs/nowhere.md is missing');
    expect(OUTSIDE.test(['CONTRACT', '\u00a73'].join(' '))).toBe(true);
  });
});

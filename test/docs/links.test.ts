/**
 * Issue 15 item 3: the documents travel with the repository. Every path that README.md, the other
 * top-level documents and docs/ point to, as a Markdown link or as a path in a code span, exists in
 * the repository, and none leads outside it (the shared contract folder beside the repository is not
 * part of a clone). A link to a heading (`file.md#anchor`) must find that heading.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchors, proseLines } from '../support/markdown-anchors.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';

/** Top-level entries a clone has that are not part of the repository: installed, built or local state. */
const NOT_IN_REPOSITORY = new Set(['.git', 'node_modules', 'dist', '.data', 'coverage']);
const topLevel = new Set(readdirSync(REPOSITORY_ROOT).filter((entry) => !NOT_IN_REPOSITORY.has(entry)));

const documents = [
  ...readdirSync(REPOSITORY_ROOT).filter((f) => f.endsWith('.md')),
  ...readdirSync(path.join(REPOSITORY_ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f)),
].sort();

interface Reference { document: string; line: number; target: string; kind: 'link' | 'code' }

function references(document: string): Reference[] {
  const found: Reference[] = [];
  for (const [line, text] of proseLines(readFileSync(path.join(REPOSITORY_ROOT, document), 'utf8'))) {
    const withoutCode = text.replace(/`[^`]*`/g, '');
    for (const m of withoutCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|^\s*\[[^\]]+\]:\s*(\S+)|<((?:https?|file|ftp):[^>\s]+)>/g)) {
      found.push({ document, line, target: (m[1] ?? m[2] ?? m[3]) as string, kind: 'link' });
    }
    for (const m of text.matchAll(/`([^`\s]+)`/g)) found.push({ document, line, target: m[1] as string, kind: 'code' });
  }
  return found;
}

const all = documents.flatMap(references);
const where = (r: Reference): string => `${r.document}:${r.line} ${r.target}`;

const inside = (absolute: string): boolean => {
  const relative = path.relative(REPOSITORY_ROOT, absolute);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/** What is wrong with a Markdown link, or undefined. */
function linkProblem(r: Reference): string | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(r.target)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    // Links to the running service on loopback are fine; nothing else outside the repository is.
    const host = /^https?:\/\/(\[[^\]]+\]|[^/:]+)/i.exec(r.target)?.[1];
    return host !== undefined && /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(host) ? undefined : 'an address outside the repository';
  }
  const [file = '', anchor] = r.target.split('#');
  const absolute = file === '' ? path.join(REPOSITORY_ROOT, r.document) : path.resolve(REPOSITORY_ROOT, path.dirname(r.document), decodeURI(file));
  if (!inside(absolute)) return 'outside the repository';
  if (!existsSync(absolute)) return 'missing';
  if (anchor !== undefined && absolute.endsWith('.md') && !anchors(absolute).has(anchor)) return `no heading #${anchor}`;
  return undefined;
}

/** What is wrong with a path in a code span, or undefined when it is no repository path at all. */
function codeProblem(r: Reference): string | undefined {
  if (/^\.\.(\/|$)/.test(r.target)) return 'outside the repository';
  const candidate = r.target.replace(/[:#].*$/, '').replace(/[*{<…].*$/, '');
  const first = candidate.split('/')[0] ?? '';
  if (!topLevel.has(first) || (candidate === first && !r.target.includes('/') && !/\.\w+$/.test(first))) return undefined;
  const absolute = path.join(REPOSITORY_ROOT, candidate);
  if (!existsSync(absolute)) return 'missing';
  if (candidate.endsWith('/') && !statSync(absolute).isDirectory()) return 'not a folder';
  return undefined;
}

describe('issue 15 item 3: README.md and docs/ point only to files in the repository', () => {
  it('reads the documents, docs/ among them', () => {
    expect(documents).toEqual(expect.arrayContaining([
      'README.md', 'docs/contract.md', 'docs/upstream-ehr.md', 'docs/threat-model.md', 'docs/operations.md',
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

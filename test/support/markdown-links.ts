/**
 * What the documents point to (test/docs/links.test.ts, test/docs/readme.test.ts): their Markdown links
 * and the repository paths in their code spans, and what is wrong with each.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { anchors, proseLines } from './markdown-anchors.js';
import { REPOSITORY_ROOT } from './upstream-examples.js';

/** Top-level entries a clone has that are not part of the repository: installed, built or local state. */
const NOT_IN_REPOSITORY = new Set(['.git', 'node_modules', 'dist', '.data', 'coverage']);
const topLevel = new Set(readdirSync(REPOSITORY_ROOT).filter((entry) => !NOT_IN_REPOSITORY.has(entry)));

export interface Reference { document: string; line: number; target: string; kind: 'link' | 'code' }

/** Every Markdown link and every code span of `document` (a path from the repository's root), by line. */
export function references(document: string): Reference[] {
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

const inside = (absolute: string): boolean => {
  const relative = path.relative(REPOSITORY_ROOT, absolute);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/** What is wrong with a Markdown link, or undefined. */
export function linkProblem(r: Reference): string | undefined {
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
export function codeProblem(r: Reference): string | undefined {
  if (/^\.\.(\/|$)/.test(r.target)) return 'outside the repository';
  const candidate = r.target.replace(/[:#].*$/, '').replace(/[*{<…].*$/, '');
  const first = candidate.split('/')[0] ?? '';
  if (!topLevel.has(first) || (candidate === first && !r.target.includes('/') && !/\.\w+$/.test(first))) return undefined;
  const absolute = path.join(REPOSITORY_ROOT, candidate);
  if (!existsSync(absolute)) return 'missing';
  if (candidate.endsWith('/') && !statSync(absolute).isDirectory()) return 'not a folder';
  return undefined;
}


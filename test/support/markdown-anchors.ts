import { readFileSync } from 'node:fs';

/** The text outside fenced code blocks, line by line (commands and field trees are not references). */
export function proseLines(text: string): [number, string][] {
  let fenced = false;
  return text.split('\n').flatMap((line, i): [number, string][] => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return [];
    }
    return fenced || /^( {4}|\t)/.test(line) ? [] : [[i + 1, line]];
  });
}

/**
 * GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. The
 * heading is trimmed before its punctuation goes, not after, as github-slugger does: "within 5 %)" ends
 * its anchor in `5-`.
 */
export function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, line] of proseLines(readFileSync(file, 'utf8'))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = heading.replace(/`/g, '').toLowerCase().trim().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

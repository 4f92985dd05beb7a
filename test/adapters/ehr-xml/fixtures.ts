import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root; the shared contract folder sits beside it (in CI too). */
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export const ZONE = 'Europe/Stockholm';
export const PATIENT = '191212121212';

export function example(name: string): string {
  return readFileSync(path.resolve(repoRoot, '..', 'shared', 'upstream', 'examples', name), 'utf8');
}

/** Replaces exactly one occurrence, so a fixture edit that stops matching fails loudly. */
export function edit(xml: string, from: string, to: string): string {
  const at = xml.indexOf(from);
  if (at < 0 || xml.indexOf(from, at + 1) >= 0) throw new Error(`fixture edit must match once: ${from}`);
  return xml.slice(0, at) + to + xml.slice(at + from.length);
}

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { examplesDir } from '../../support/upstream-examples.js';

export const ZONE = 'Europe/Stockholm';
export const PATIENT = '191212121212';

/**
 * An upstream example document: the project's own (test/fixtures/upstream), or the shared
 * contract's when the `shared-examples` test project runs this file (test/support/upstream-examples.ts).
 */
export function example(name: string): string {
  return readFileSync(path.join(examplesDir(), name), 'utf8');
}

/** Replaces exactly one occurrence, so a fixture edit that stops matching fails loudly. */
export function edit(xml: string, from: string, to: string): string {
  const at = xml.indexOf(from);
  if (at < 0 || xml.indexOf(from, at + 1) >= 0) throw new Error(`fixture edit must match once: ${from}`);
  return xml.slice(0, at) + to + xml.slice(at + from.length);
}

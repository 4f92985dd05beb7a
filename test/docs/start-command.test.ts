/**
 * The documents quote the command `npm start` runs (README.md, docs/operations.md: what an image runs
 * directly), so they quote package.json's own: a flag added to or taken from `npm start` fails here
 * until the documents say so too.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';

const read = (file: string): string => readFileSync(path.join(REPOSITORY_ROOT, file), 'utf8');
const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;

describe('the start command in the documents', () => {
  it.each(['README.md', 'docs/operations.md'])('%s quotes the command npm start runs, and no other', (file) => {
    const quoted = [...read(file).replace(/\n\s*/g, ' ').matchAll(/`(node [^`]*dist\/server\.js)`/g)].map((m) => m[1]);
    expect(quoted.length).toBeGreaterThan(0);
    for (const command of quoted) expect(command).toBe(start);
  });
});

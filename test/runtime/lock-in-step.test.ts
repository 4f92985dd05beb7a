/**
 * The README's `npm install` leaves a fresh clone as it was: the lock file's record of the project's own dependencies
 * is package.json's, range for range, or npm rewrites the lock on the first install. Newcomer walk-through helper-193,
 * F7: `on-headers` and `@types/on-headers` were pinned in the lock's root and ranged in package.json, and a fresh
 * clone's first `npm install` left `package-lock.json` changed. Failed before on those two.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (file: string): unknown => JSON.parse(readFileSync(new URL(file, root), 'utf8'));

type Ranges = Record<string, string>;
interface Manifest { dependencies?: Ranges; devDependencies?: Ranges; optionalDependencies?: Ranges }

describe('package-lock.json in step with package.json', () => {
  it('records every dependency of the project with package.json\'s own range', () => {
    const manifest = read('package.json') as Manifest;
    const locked = (read('package-lock.json') as { packages: Record<string, Manifest> }).packages[''] as Manifest;
    for (const kind of ['dependencies', 'devDependencies', 'optionalDependencies'] as const) {
      expect([kind, locked[kind] ?? {}]).toEqual([kind, manifest[kind] ?? {}]);
    }
  });
});

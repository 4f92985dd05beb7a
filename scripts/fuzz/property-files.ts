/** The test files whose properties run through test/support/seeds.ts: what `npm run fuzz` runs, derived from the tree. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** Imports the seeds helper, from any folder depth. */
const USES_SEEDS = /from '(?:\.\.?\/)+(?:test\/)?support\/seeds\.js'/;

/** Files under test/ and src/ (relative to `root`, sorted) whose text `matches`. */
export async function testFilesMatching(root: string, matches: (text: string) => boolean): Promise<string[]> {
  const found: string[] = [];
  for (const dir of ['test', 'src']) {
    for (const entry of await readdir(path.join(root, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.test.ts')) continue;
      const file = path.join(entry.parentPath, entry.name);
      if (matches(await readFile(file, 'utf8'))) found.push(path.relative(root, file));
    }
  }
  return found.sort();
}

export const propertyFiles = (root: string): Promise<string[]> => testFilesMatching(root, (text) => USES_SEEDS.test(text));

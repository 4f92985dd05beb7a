import { readdir } from 'node:fs/promises';
import { OPERATIONS, type ReadName } from '../../src/domain/operations/table.js';

/** src/reads/, where each read has its folder (docs/architecture.md#a-read-is-one-folder). */
export const READS_DIR = new URL('../../src/reads/', import.meta.url);

/** The folder of each read: the one whose operation.ts exports its entry. */
export async function readFolders(): Promise<Map<ReadName, URL>> {
  const folders = new Map<ReadName, URL>();
  for (const entry of await readdir(READS_DIR, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const folder = new URL(`${entry.name}/`, READS_DIR);
    const exports = await import(new URL('operation.ts', folder).href).catch(() => ({})) as Record<string, unknown>;
    for (const [name, value] of Object.entries(exports)) {
      if (Object.hasOwn(OPERATIONS, name) && OPERATIONS[name as ReadName] === value) folders.set(name as ReadName, folder);
    }
  }
  return folders;
}

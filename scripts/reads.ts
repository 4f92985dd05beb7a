/**
 * `npm run reads [table]`: the tables of the reads, in Markdown, made now from the operation table and
 * the reads' folders (scripts/read-tables/tables.ts). The docs point here instead of keeping a copy, so
 * a new read edits nothing outside its folder. With a table's name, that table alone.
 */
import { readFolders } from '../test/support/read-folders.js';
import { READ_TABLES } from './read-tables/tables.js';

const asked = process.argv[2];
if (asked === '--help' || (asked !== undefined && !READ_TABLES.some((t) => t.name === asked))) {
  process.stdout.write(`usage: npm run reads [-- ${READ_TABLES.map((t) => t.name).join(' | ')}]\n`);
  process.exit(asked === '--help' ? 0 : 2);
}
const folders = await readFolders();
for (const table of READ_TABLES.filter((t) => asked === undefined || t.name === asked)) {
  process.stdout.write(`## ${table.title} (${table.name}; ${table.doc})\n\n${table.make(folders)}\n\n`);
}

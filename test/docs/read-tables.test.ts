/**
 * Issue 57 item 3: the docs keep no list of the reads that a new read would have to edit. The tables
 * are made from the operation table and the reads' folders when asked (`npm run reads`,
 * scripts/read-tables/tables.ts), and the docs point there: each table names every read it concerns,
 * and no doc holds a copy of one.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IPS_SECTIONS } from '../../src/domain/fhir/ips-sections.js';
import { READ_NAMES, RELEASE_FILTERED_READS } from '../../src/domain/operations/table.js';
import { isServed } from '../../src/reads/read-sources.js';
import { READ_SOURCES } from '../../src/reads/source-table.js';
import { READ_TABLES, type ReadTable } from '../../scripts/read-tables/tables.js';
import { readFolders } from '../support/read-folders.js';
import { runScript, RUNS_COMMANDS } from '../support/run-script.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';

const tableNamed = (name: string): ReadTable => {
  const table = READ_TABLES.find((t) => t.name === name);
  if (table === undefined) throw new Error(`no table ${name}`);
  return table;
};

describe('issue 57 item 3: the tables of the reads are made when asked, and the docs point at them', () => {
  it('each table names every read it concerns, from the operation table and the folders', async () => {
    const folders = await readFolders();
    const glance = tableNamed('reads-at-a-glance').make(folders);
    for (const read of READ_NAMES.filter((r) => isServed(READ_SOURCES[r].fhir))) expect(glance).toContain(`(\`${read}\`)`);
    const released = tableNamed('release-filtered-reads').make(folders);
    expect(released.split('\n')).toHaveLength(RELEASE_FILTERED_READS.length);
    for (const read of RELEASE_FILTERED_READS) expect(released).toContain(`(\`${read}\`)`);
    const sections = tableNamed('summary-sections').make(folders);
    for (const section of IPS_SECTIONS) expect(sections).toContain(`| \`${section.code}\` |`);
    expect(tableNamed('read-types').make(folders)).toMatch(/^\| resource type \|/);
    // The app's sections: every read the FHIR API serves, with its section or why it has none.
    const app = tableNamed('app-sections').make(folders);
    for (const read of READ_NAMES.filter((r) => isServed(READ_SOURCES[r].asFhir))) expect(app).toContain(`(\`${read}\`)`);
  });

  it.each(READ_TABLES)('$doc points at `npm run reads -- $name` and keeps no copy of it', async ({ doc, name, make }) => {
    const text = await readFile(path.join(REPOSITORY_ROOT, doc), 'utf8');
    expect(text).toContain(`npm run reads -- ${name}`);
    const folders = await readFolders();
    // Any row of the table kept by hand would go stale with the next read.
    const lines = make(folders).split('\n');
    // A table's rows (not its header and rule, which say nothing of a read), or every item of a list.
    const rows = lines[0]?.startsWith('|') === true ? lines.slice(2) : lines;
    for (const row of rows) expect(text, `${doc} keeps a row of ${name}`).not.toContain(row);
  });

  it('`npm run reads` prints every table, and one by its name; an unknown name is refused with the usage', RUNS_COMMANDS, async () => {
    const all = await runScript('reads.ts', [], {});
    expect(all.code, all.stderr).toBe(0);
    for (const table of READ_TABLES) expect(all.stdout).toContain(`## ${table.title} (${table.name}`);
    const one = await runScript('reads.ts', ['summary-sections'], {});
    expect([one.code, one.stdout.match(/^## /gm)?.length]).toEqual([0, 1]);
    const unknown = await runScript('reads.ts', ['vaccinations'], {});
    expect([unknown.code, unknown.stdout]).toEqual([2, expect.stringContaining('usage: npm run reads')]);
  });
});

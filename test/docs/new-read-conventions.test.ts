/**
 * Issue 57 item 5: `npm run new-read` follows the house. `--help` says what it takes (it crashed), an
 * unknown option is one line and the usage (it was a stack), and its defaults are the conventions the
 * real reads follow: the singular scope (`user/LabResult-read`), error shape 2 for a read beyond the
 * spec (the vendor's reads, numbered after the spec's 1–10), the singular document namespace.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { mirrorNamesOf, mirrorOperationTs } from '../../scripts/new-read/mirror-templates.js';
import { namesOf, operationTs, scopeOf } from '../../scripts/new-read/templates.js';
import { DOCUMENTS } from '../../src/adapters/ehr-xml/documents.js';
import { OPERATIONS } from '../../src/domain/operations/table.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';

const run = promisify(execFile);
const TSX = path.join(REPOSITORY_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const newRead = (...args: string[]) => run(process.execPath, [TSX, 'scripts/new-read.ts', ...args], { cwd: REPOSITORY_ROOT });

/** Real reads whose folder names are regular plurals: the scaffold must name their scope as the house did. */
const REGULAR = { 'lab-results': 'getLabResults', appointments: 'getAppointments', 'journal-notes': 'getJournalNotes', 'video-meetings': 'getVideoMeetings', 'attention-signals': 'getAttentionSignals' } as const;

describe('npm run new-read follows the house', () => {
  it('--help prints the usage, every option, and exits 0 without writing anything', async () => {
    const { stdout } = await newRead('--help');
    expect(stdout).toMatch(/^usage: npm run new-read -- <name>/);
    for (const option of ['--sv', '--en', '--singular', '--mirror', '--help']) expect(stdout).toContain(option);
  }, 30_000);

  it('an unknown option is refused in one line with the usage, not a stack', async () => {
    const failed = await newRead('referrals', '--bogus').then(() => undefined, (err: unknown) => err as { code: number; stderr: string });
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toMatch(/^new-read: Unknown option '--bogus'/);
    expect(failed?.stderr).toContain('usage: npm run new-read');
    expect(failed?.stderr).not.toMatch(/\n\s+at /);
  }, 30_000);

  it.each(Object.entries(REGULAR))('names the scope of %s singular, as the house did (%s)', (folder, operation) => {
    expect(scopeOf(namesOf(folder))).toBe(OPERATIONS[operation].scope.name);
  });

  it('takes an irregular singular as given', () => {
    expect(scopeOf(namesOf('diagnoses', undefined, undefined, 'Diagnosis'))).toBe('user/Diagnosis-read');
    expect(scopeOf(namesOf('allergies'))).toBe('user/Allergy-read');
  });

  it('answers errors in shape 2, as every read beyond the spec does', () => {
    const beyond = Object.values(OPERATIONS).filter((op) => 'number' in op && typeof op.number === 'number' && op.number > 10);
    expect(beyond.length).toBeGreaterThan(0);
    expect(new Set(beyond.map((op) => op.errorShape))).toEqual(new Set(['error']));
    const names = namesOf('care-plans');
    expect(operationTs(names)).toContain("errorShape: 'error',");
    expect(mirrorOperationTs(names, mirrorNamesOf(names, 'CarePlanEHRExtracts'))).toContain("errorShape: 'error',");
  });

  it('names a mirror document in the singular namespace, as every document is', () => {
    const version = /:\d+$/;
    expect(mirrorNamesOf(namesOf('lab-results'), 'ChemistryReportEHRExtracts').namespace.replace(version, ''))
      .toBe(DOCUMENTS.labresults.namespace.replace(version, ''));
    expect(mirrorNamesOf(namesOf('care-contacts', undefined, undefined, 'CareContact'), 'ContactEHRExtracts').namespace.replace(version, ''))
      .toBe(DOCUMENTS.contacts.namespace.replace(version, ''));
    expect(mirrorNamesOf(namesOf('care-plans'), 'CarePlanEHRExtracts').namespace).toBe('urn:example:ehr:careplan:1');
  });
});

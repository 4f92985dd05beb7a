/**
 * `npm run conformance` as a region runs it (the script in a process of its own) against the
 * development FHIR server in this process: the table on stdout and the exit status 0 when
 * conformant, 1 when a check failed, 2 when the command line is wrong.
 */
import { describe, expect, it } from 'vitest';
import { READ_NAMES } from '../../src/domain/operations/table.js';
import { READ_PLANS } from '../../src/adapters/ehr-fhir/client/read-plans.js';
import { demoBothFormsForTests } from '../support/demo-both-forms.js';
import { runScript, type ScriptRun } from '../support/run-script.js';

const demo = demoBothFormsForTests(Date.parse('2026-11-21T08:00:00Z'), 'Europe/Stockholm');

/** `npm run conformance -- ...` (scripts/conformance.ts), bounded so a hang fails the test. */
const conformance = (args: string[]): Promise<ScriptRun> =>
  runScript('conformance.ts', args, { FHIR_VIDEO_ACTION_ID_SYSTEM: 'urn:oid:1.2.752.99999.1.8' }, { timeoutMs: 30_000 });

describe('npm run conformance', () => {
  it('prints the table and exits 0 against a conformant server', async () => {
    const run = await conformance(['--base-url', demo.sim.baseUrl, '--patient', '191212121212']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^identity lookup +PASS /m);
    // The capabilities, the writes' capabilities, the identity lookup, every read served over FHIR and the registry;
    // the writes were not asked for, and a read declared not served is skipped as declared.
    const served = READ_NAMES.filter((name) => READ_PLANS[name] !== undefined).length;
    expect(run.stdout).toContain(`CONFORMANT: ${served + 4} PASS, 0 FAIL, 0 WARN, ${1 + READ_NAMES.length - served} SKIP`);
  }, 40_000);

  it('exits 1 when a check fails (no FHIR server at that base)', async () => {
    const run = await conformance(['--base-url', `${new URL(demo.sim.baseUrl).origin}/not-fhir`]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^capability statement +FAIL +GET metadata: bad-response/m);
    expect(run.stdout).toContain('NOT CONFORMANT');
  }, 40_000);

  it('exits 2 and says what to give on a wrong command line', async () => {
    const run = await conformance(['--patient', '191212121212']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--base-url is required');
  }, 40_000);
});

/**
 * The tests run the commands from bundles (test/support/command-bundles.ts) where an operator runs
 * `node --import tsx scripts/<x>.ts` (`npm run <x>`): here each command runs both ways on the same
 * arguments, and the two print the same bytes and exit alike, so the bundles stand for the real entry
 * and the real entry still runs in `npm test`.
 */
import { access } from 'node:fs/promises';
import { describe, expect, inject, it } from 'vitest';
import { BUNDLED_COMMANDS, bundleOf } from '../support/command-bundles.js';
import { RUNS_COMMANDS, runScript } from '../support/run-script.js';

const CASES: readonly (readonly [string, readonly string[]])[] = [
  ...BUNDLED_COMMANDS.map((c) => [c, ['--help']] as const),
  ['proxies.ts', ['list', '--no-such-option']], ['audit.ts', ['verify']], ['conformance.ts', []],
];

describe('the commands as the tests run them (bundled) and as an operator does (tsx)', RUNS_COMMANDS, () => {
  it('npm test built a bundle for each command', async () => {
    expect(inject('commandBundles')).toBe(true);
    for (const c of BUNDLED_COMMANDS) await access(bundleOf(c) as string);
  });

  it.each(CASES)('%s %j prints and exits the same both ways', async (script, args) => {
    const [bundled, operators] = await Promise.all([runScript(script, args, {}), runScript(script, args, {}, { asOperator: true })]);
    expect(bundled).toEqual(operators);
    expect(operators.stdout + operators.stderr).not.toBe('');
  });
});

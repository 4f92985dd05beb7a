/**
 * `npm run notifications` (docs/notifications.md#trying-it): `--help` says what it takes, and an option it does not
 * know is one line and the usage, as `demo:token`'s and `proxies`' are. Newcomer walk-through helper-193, F2:
 * `--help` or a mistyped option printed Node's stack (ERR_PARSE_ARGS_UNKNOWN_OPTION). Failed before: a stack, exit 1.
 */
import { describe, expect, it } from 'vitest';
import { runScript, RUNS_COMMANDS } from '../support/run-script.js';

describe('npm run notifications, asked wrongly', RUNS_COMMANDS, () => {
  it('answers --help with its usage, and an unknown option with one line and the usage, never a stack', async () => {
    const help = await runScript('notifications.ts', ['--help'], {}, { asOperator: true });
    expect([help.code, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toMatch(/^usage: npm run notifications/);
    const typo = await runScript('notifications.ts', ['--topics', 'access'], {}, { asOperator: true });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^notifications: .*'--topics'.*\n\nusage: npm run notifications/);
    expect(typo.stderr).not.toMatch(/\n\s+at /);
  });
});

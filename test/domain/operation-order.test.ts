// The operation table's order is what the API documentation lists and the patient app's names are
// stamped with; it must not depend on which module loader built the table. Node's own ES modules give
// a namespace (`import * as`) its names sorted, vite's module runner (vitest) in the order written:
// the sharing operations, spread from a namespace, came in the steps' order under the tests and
// alphabetically in the service (`npm start`), and the app built by `npm run build` never matched the
// names the suite computed, so every `npm test` after a build built the app again.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { namesModuleSource } from '../../scripts/app-names/names.js';
import { OPERATION_NAMES } from '../../src/domain/operations/table.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Sharing's operations, as a person takes the steps (src/domain/operations/table.ts). */
const SHARING = ['listProxies', 'getProxy', 'grantProxy', 'acceptProxy', 'declineProxy', 'revokeProxy'];

/** The table's operation names and the patient app's names module as Node's own loader makes them (tsx only transpiles). */
function underNode(): { operations: string[]; appNames: string } {
  const script = "const { OPERATION_NAMES } = await import('./src/domain/operations/table.ts');"
    + " const { namesModuleSource } = await import('./scripts/app-names/names.ts');"
    + ' process.stdout.write(JSON.stringify({ operations: OPERATION_NAMES, appNames: namesModuleSource() }));';
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' })) as { operations: string[]; appNames: string };
}

describe('the operation table\'s order', () => {
  it('lists sharing as a person takes its steps, and is the same, as are the app\'s names, under Node\'s loader as under the tests\'', () => {
    expect(OPERATION_NAMES.filter((name) => SHARING.includes(name))).toEqual(SHARING);
    const node = underNode();
    expect(node.operations).toEqual([...OPERATION_NAMES]);
    // What scripts/build-app.ts stamps the app with, and compares to decide whether to build it again.
    expect(node.appNames).toBe(namesModuleSource());
  });
});

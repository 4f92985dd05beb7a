/**
 * Issue 35: what the prose lists of the operations is checked against the operation table, so it
 * cannot go stale unnoticed: docs/contract.md's operations table (number, method, path, scope) and
 * its list of the vendor's paths, and the scopes the README's curl session asks for. They list the
 * contract's operations: the numbered ones and the access log. A read a region adds
 * (`npm run new-read`, unnumbered) is documented by /openapi.json and named in the access log.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES, OPERATIONS } from '../../src/domain/operations/table.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';

const read = (file: string): string => readFileSync(`${REPOSITORY_ROOT}/${file}`, 'utf8');
const CONTRACT_OPERATIONS = OPERATION_NAMES.filter((name) => OPERATIONS[name].number !== undefined || OPERATIONS[name].handler === 'accessLog');
const ordered = (items: readonly string[]): string[] => [...new Set(items)];

describe('issue 35: the documents list the operations the table has', () => {
  const contract = read('docs/contract.md');
  const section = contract.slice(contract.indexOf('## Operations'), contract.indexOf('\n## ', contract.indexOf('## Operations') + 1));

  it('docs/contract.md: one row per operation, in the table\'s order, with its number, method, path and scope', () => {
    const rows = [...section.matchAll(/^\| (\d+|–) \| `(GET|PUT|POST) ([^`?]+)[^`]*` \| .* \| `([^`]+)` \|$/gm)]
      .map(([, number, method, path, scope]) => `${number} ${method} ${path} ${scope}`);
    expect(rows).toEqual(CONTRACT_OPERATIONS.map((name) => {
      const op = OPERATIONS[name];
      return `${op.number ?? '–'} ${op.method} ${op.path} ${op.scope.name}`;
    }));
  });

  it('docs/contract.md: the vendor\'s paths, each once', () => {
    const listed = section.slice(section.indexOf('The vendor\'s own paths')).split('\n\n')[0] ?? '';
    const paths = [...listed.matchAll(/`(\/[a-z/]+\/)`/g)].map(([, path]) => path);
    expect(paths.sort()).toEqual(ordered(CONTRACT_OPERATIONS.flatMap((name) => OPERATIONS[name].vendorPaths)).sort());
  });

  it('README.md: the client token of the curl session asks for the scope of every operation, each once', () => {
    const asked = /-d scope="([^"]+)"/.exec(read('README.md'))?.[1]?.split(' ') ?? [];
    expect(asked.length).toBe(new Set(asked).size);
    expect([...asked].sort()).toEqual(ordered(CONTRACT_OPERATIONS.map((name) => OPERATIONS[name].scope.name)).sort());
  });
});

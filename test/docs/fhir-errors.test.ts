/**
 * docs/fhir-api.md#errors lists every status the FHIR door answers an error with and the issue code it
 * carries, as src/http/fhir/operation-outcome.ts gives them: a status the code adds is a row the docs owe.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OUTCOME_CODES } from '../../src/http/fhir/operation-outcome.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';

describe('docs/fhir-api.md: the errors table', () => {
  it('has a row for every status of an OperationOutcome, with its issue code, and no other', () => {
    const docs = readFileSync(`${REPOSITORY_ROOT}/docs/fhir-api.md`, 'utf8');
    const from = docs.indexOf('## Errors');
    const section = docs.slice(from, docs.indexOf('\n## ', from + 1));
    const listed = [...section.matchAll(/^\| ([\d, ]+) \| `([a-z-]+)`/gm)]
      .flatMap(([, statuses, code]) => (statuses as string).split(',').map((status) => `${status.trim()} ${code}`));
    expect(listed.sort()).toEqual(Object.entries(OUTCOME_CODES).map(([status, code]) => `${status} ${code}`).sort());
  });
});

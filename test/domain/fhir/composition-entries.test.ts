/**
 * `Composition:entry` includes the entries of nested sections too (src/domain/fhir/search-parameters.ts):
 * a journal note's nested Records are nested sections, whose entries the `fhir-r4` adapter follows as it
 * follows the top level's. Failed before (the top level's only): the adapter read the nested entries of
 * Tolvan's notes by `_id`, which the API could not find among the lab results' Observations
 * (test/e2e/fhir-chain.e2e.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { included } from '../../../src/domain/fhir/resource-search.js';
import type { FhirResource } from '../../../src/reads/as-fhir.js';

const observation = (id: string): FhirResource => ({ resourceType: 'Observation', id, status: 'final' });
const entry = (id: string) => ({ entry: [{ reference: `Observation/${id}` }] });

const note: FhirResource = {
  resourceType: 'Composition', id: 'note-1',
  section: [{ ...entry('top'), section: [{ ...entry('nested'), section: [{ ...entry('deeper'), section: [entry('deepest')] }] }] }],
};
const records = [note, ...['top', 'nested', 'deeper', 'deepest', 'elsewhere'].map(observation)];

describe('Composition:entry', () => {
  it('includes the entries of every section, nested ones too, and nothing the note does not name', () => {
    const found = included([note], records, [{ type: 'Composition', param: 'entry', iterate: false }], []);
    expect(found.map((r) => r.id)).toEqual(['top', 'nested', 'deeper', 'deepest']);
  });
});

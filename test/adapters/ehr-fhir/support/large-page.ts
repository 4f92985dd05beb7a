/** Large FHIR pages for the tests of "Bounded cost" (docs/upstream-fhir.md#search-and-paging), made from the demo bundle. */
import { readFileSync } from 'node:fs';
import { FHIR_FIXTURES } from './demo-bundle.js';

export const MIB = 1024 * 1024;

/** A search page of about `bytes` of the demo bundle's Conditions, Procedures and Observations, each its own id, whole values written as decimals (`5.0`). */
export function conditionPage(bytes: number): string {
  const demo = JSON.parse(readFileSync(new URL('demo-bundle.json', FHIR_FIXTURES), 'utf8')) as { entry: { resource: { resourceType: string; id: string } }[] };
  const models = demo.entry.filter((e) => ['Condition', 'Procedure', 'Observation'].includes(e.resource.resourceType));
  const entries: string[] = [];
  for (let size = 0, i = 0; size < bytes - 200; i++) {
    const entry = structuredClone(models[i % models.length]) as { resource: { id: string } };
    entry.resource.id = `${entry.resource.id}-${i}`;
    const text = JSON.stringify(entry).replace(/"value":(\d+)([,}])/g, '"value":$1.0$2');
    size += text.length + 1;
    entries.push(text);
  }
  return `{"resourceType":"Bundle","type":"searchset","entry":[${entries.join(',')}]}`;
}

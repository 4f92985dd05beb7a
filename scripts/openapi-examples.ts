// `npm run openapi:examples`: rewrites the example answers of the OpenAPI document from the demo data:
// each read's example.json in its folder, and the writes' in src/http/openapi/write-examples.json.
import { writeFile } from 'node:fs/promises';
import { isOperationName, OPERATIONS } from '../src/domain/operations/table.js';
import { collectOpenApiExamples } from '../test/support/openapi-examples.js';
import { readFolders } from '../test/support/read-folders.js';

const WRITES = new URL('../src/http/openapi/write-examples.json', import.meta.url);
const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

const examples = await collectOpenApiExamples();
const folders = await readFolders();
const writes: Record<string, unknown> = {};
for (const [operation, example] of Object.entries(examples)) {
  if (!isOperationName(operation)) continue;
  const folder = OPERATIONS[operation].handler === 'records' ? folders.get(operation as never) : undefined;
  if (folder === undefined) {
    writes[operation] = example;
    continue;
  }
  const file = new URL('example.json', folder);
  await writeFile(file, json(example));
  console.log(`wrote ${file.pathname}`);
}
await writeFile(WRITES, json(writes));
console.log(`wrote ${WRITES.pathname}`);

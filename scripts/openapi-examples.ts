// `npm run openapi:examples`: rewrites the example answers of the OpenAPI document from the demo data.
import { writeFile } from 'node:fs/promises';
import { collectOpenApiExamples } from '../test/support/openapi-examples.js';

const FILE = new URL('../src/http/openapi/examples.json', import.meta.url);
await writeFile(FILE, `${JSON.stringify(await collectOpenApiExamples(), null, 2)}\n`);
console.log(`wrote ${FILE.pathname}`);

// `npm run openapi:client`: regenerates the TypeScript types the client test is written against.
import { writeFile } from 'node:fs/promises';
import { CLIENT_TYPES_FILE, generateClientTypes } from '../test/support/openapi-client.js';
import { publishedDocument } from '../test/support/openapi-lint.js';

await writeFile(CLIENT_TYPES_FILE, await generateClientTypes(await publishedDocument()));
console.log(`wrote ${CLIENT_TYPES_FILE.pathname}`);

import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

/** Where the client test's calls and the types generated for them live (test/http/openapi-client/calls.ts). */
const CLIENT_DIR = new URL('../http/openapi-client/', import.meta.url);
const TYPES_FILE = new URL('generated/patient-data-access.d.ts', CLIENT_DIR);

/** TypeScript types for the document, as `openapi-typescript` generates them (what an integrator would run). */
export async function generateClientTypes(document: Record<string, unknown>): Promise<string> {
  const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0], { silent: true });
  return `// Generated from /openapi.json with openapi-typescript when the client test runs; not committed.\n${astToString(ast)}`;
}

/**
 * Generates the client types of `document` beside the client's calls and compiles the calls against
 * them: the compiler's complaints, or '' when the calls fit the document.
 */
export async function compileClientAgainst(document: Record<string, unknown>): Promise<string> {
  await mkdir(new URL('generated/', CLIENT_DIR), { recursive: true });
  await writeFile(TYPES_FILE, await generateClientTypes(document));
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  return new Promise((resolve) => {
    execFile(process.execPath, [tsc, '-p', fileURLToPath(new URL('tsconfig.json', CLIENT_DIR))], (err, stdout) => resolve(err ? stdout || String(err) : ''));
  });
}

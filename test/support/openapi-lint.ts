import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { OAuthDocumentation } from '../../src/http/openapi/security.js';
import { startTestApp } from './test-app.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SPECTRAL = path.join(ROOT, 'node_modules', '.bin', 'spectral');

export interface Finding { code: string; severity: number; path: string[]; message: string }

/** The document the service publishes at /openapi.json (test app: embedded EHR, the demo issuer's default address unless `oauth` names another). */
export async function publishedDocument(oauth?: OAuthDocumentation): Promise<Record<string, unknown>> {
  const t = await startTestApp(oauth === undefined ? {} : { oauth });
  try {
    return (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  } finally {
    await t.close();
  }
}

/**
 * Spectral with the repository's ruleset (.spectral.yaml: spectral:oas and OWASP) on documents, in
 * one run (the ruleset is loaded once): every finding of each, warnings and hints too.
 */
export async function lintOpenApi(...documents: unknown[]): Promise<Finding[][]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pdas-openapi-'));
  try {
    const files = await Promise.all(documents.map(async (document, i) => {
      const file = path.join(dir, `openapi-${i}.json`);
      await writeFile(file, JSON.stringify(document, null, 2));
      return file;
    }));
    const args = ['lint', '--ruleset', path.join(ROOT, '.spectral.yaml'), '--format', 'json', '--quiet', '--fail-severity', 'hint', ...files];
    // Spectral exits non-zero when it finds something; its JSON report is on stdout either way.
    const run = await promisify(execFile)(SPECTRAL, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 })
      .catch((err: { stdout?: string; stderr?: string }) => ({ stdout: err.stdout ?? '', stderr: err.stderr ?? '' }));
    if (!run.stdout.trim().startsWith('[')) throw new Error(`spectral did not report: ${run.stderr || run.stdout}`);
    const all = JSON.parse(run.stdout) as Array<Finding & { source: string }>;
    return files.map((file) => all.filter((f) => path.resolve(f.source) === file)
      .map(({ code, severity, path: at, message }) => ({ code, severity, path: at, message })));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

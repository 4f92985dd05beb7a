/**
 * Issue 38: README.md is a front page (what it is, how to run it, where to go next) and docs/ the
 * manual. The README stays short and leads only into the repository; every setting src/start/config.ts
 * reads is described exactly once, in a settings table of docs/ (docs/running.md#settings, the FHIR
 * API's and the FHIR adapter's), so a new setting fails here until it is documented, and a second
 * description cannot drift from the first.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { linkProblem, references } from '../support/markdown-links.js';
import { configReads, settingRows } from '../support/settings-tables.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';

const README = readFileSync(path.join(REPOSITORY_ROOT, 'README.md'), 'utf8');

describe('issue 38: README.md as a front page', () => {
  it('is at most 170 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(170);
  });

  it('links only to files (and headings) in the repository, or the running service on loopback', () => {
    const links = references('README.md').filter((r) => r.kind === 'link');
    expect(links.length).toBeGreaterThan(10);
    expect(links.flatMap((r) => (linkProblem(r) === undefined ? [] : [`README.md:${r.line} ${r.target}: ${linkProblem(r)}`]))).toEqual([]);
    expect(links.filter((r) => r.target.startsWith('../')).map((r) => r.target)).toEqual([]);
  });

  it('leads on to the manual: the FHIR API, SMART sign-in, running and operating it', () => {
    const targets = references('README.md').filter((r) => r.kind === 'link').map((r) => r.target.split('#')[0]);
    expect(targets).toEqual(expect.arrayContaining(['docs/fhir-api.md', 'docs/smart-launch.md', 'docs/operations.md', 'docs/running.md', 'docs/try-it.md']));
  });

  it('"Try it in the browser" starts with the patient app, then the API documentation', () => {
    const section = README.slice(README.indexOf('### Try it in the browser'), README.indexOf('\n## ', README.indexOf('### Try it in the browser')));
    expect(section.length).toBeGreaterThan(0);
    const app = section.indexOf('/app/');
    expect(app).toBeGreaterThan(0);
    expect(app).toBeLessThan(section.indexOf('/docs'));
    expect(section).toMatch(/198112189876/);
  });
});

describe('issue 38: every setting src/start/config.ts reads is described exactly once in docs/', () => {
  const reads = configReads();
  const rows = settingRows();

  it('finds the settings config.ts reads, those of the modules it imports too', () => {
    expect(reads).toEqual(expect.arrayContaining(['PORT', 'DATABASE_URL', 'ACCESS_LOG_CURSOR_SECRET_FILE', 'FHIR_AUTH', 'FHIR_API', 'ALLOW_PLAIN_HTTP', 'OTEL_EXPORTER_OTLP_ENDPOINT']));
    expect(reads.length).toBeGreaterThan(60);
  });

  it('each in exactly one row of a settings table', () => {
    const where = (name: string) => rows.filter((r) => r.name === name).map((r) => r.where);
    expect(reads.filter((name) => where(name).length !== 1).map((name) => `${name}: ${where(name).length === 0 ? 'not described' : where(name).join(', ')}`)).toEqual([]);
  });

  it('and no table describes a setting the service does not read', () => {
    expect([...new Set(rows.map((r) => r.name))].filter((name) => !reads.includes(name))).toEqual([]);
  });
});

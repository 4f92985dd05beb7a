/**
 * Issue 21: the import rules of docs/architecture.md#what-may-import-what hold for every module of
 * src/ (dependency-cruiser with .dependency-cruiser.cjs), and the rules do catch a breach: a small
 * tree that breaks each of them is cruised with the same configuration.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise, type ICruiseOptions, type IReporterOutput } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';

const require = createRequire(import.meta.url);
const config = require(path.join(REPOSITORY_ROOT, '.dependency-cruiser.cjs')) as { forbidden: NonNullable<ICruiseOptions['ruleSet']>['forbidden']; options: ICruiseOptions };

async function violations(root: string): Promise<string[]> {
  const own = root === REPOSITORY_ROOT ? {} : { tsConfig: undefined };
  const result: IReporterOutput = await cruise(['src'], { ...config.options, ...own, baseDir: root, ruleSet: { forbidden: config.forbidden }, validate: true });
  const output = result.output as { summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> } };
  return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
}

describe('issue 21: what may import what', () => {
  const trees: string[] = [];
  afterAll(async () => Promise.all(trees.map((t) => rm(t, { recursive: true, force: true }))));

  it('holds for every module of src/', async () => {
    expect(await violations(REPOSITORY_ROOT)).toEqual([]);
  }, 60_000);

  it('catches each kind of breach', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'import-rules-'));
    trees.push(root);
    const files: Record<string, string> = {
      'src/domain/rule.ts': "import { app } from '../http/app.js';\nimport { read } from '../ports/reader.port.js';\nexport const rule = [app, read];\n",
      'src/ports/reader.port.ts': "import { adapter } from '../adapters/a/adapter.js';\nexport const read = adapter;\n",
      'src/http/app.ts': "import { adapter } from '../adapters/a/adapter.js';\nexport const app = adapter;\n",
      'src/adapters/a/adapter.ts': "import { demo } from '../../dev/demo.js';\nexport const adapter = demo;\n",
      'src/dev/demo.ts': 'export const demo = 1;\n',
      'src/cycle-a.ts': "import { b } from './cycle-b.js';\nexport const a = () => b;\n",
      'src/cycle-b.ts': "import { a } from './cycle-a.js';\nexport const b = () => a;\n",
      // A read's folder holds every layer; each file is held to its role's rules (issue 35).
      'src/reads/r/operation.ts': "import { xml } from './xml.js';\nexport const operation = xml;\n",
      'src/reads/r/xml.ts': "import { demo } from './demo-data.js';\nexport const xml = demo;\n",
      'src/reads/r/demo-data.ts': 'export const demo = 1;\n',
      'src/reads/r/xml.test.ts': "import { demo } from './demo-data.js';\nexport const test = demo;\n",
      // A read's sources name its own demo.ts by a lazy import only (issue 43 item 8).
      'src/reads/r/sources.ts': "import { demo } from './demo.js';\nexport const sources = { demo, own: () => import('./demo.js'), other: () => import('../q/demo.js') };\n",
      'src/reads/r/demo.ts': 'export const demo = 1;\n',
      'src/reads/q/demo.ts': 'export const demo = 2;\n',
      // A cycle through a read's lazy demo import is a cycle all the same (issue 57 item 7).
      'src/reads/p/sources.ts': "export const sources = { demo: () => import('./demo.js') };\n",
      'src/reads/p/demo.ts': "import { sources } from './sources.js';\nexport const demo = sources;\n",
      // A read's oracles.ts is test code: it may name demo data, and only a test may import it (issue 43 item 6).
      'src/reads/r/oracles.ts': "import { demo } from './demo-data.js';\nexport const getR = { demo };\n",
      'src/reads/r/answer.ts': "import { getR } from './oracles.js';\nexport const answer = getR;\n",
      'src/reads/r/operation.test.ts': "import { getR } from './oracles.js';\nexport const test = getR;\n",
    };
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), text);
    }
    const all = await violations(root);
    expect(all).toContain('domain-is-pure: src/reads/r/operation.ts -> src/reads/r/xml.ts');
    expect(all).toContain('adapters-stay-below-http: src/reads/r/xml.ts -> src/reads/r/demo-data.ts');
    expect(all.filter((v) => v.includes('xml.test.ts'))).toEqual([]);
    expect(all.filter((v) => v.includes('src/reads/r/sources.ts')).sort()).toEqual([
      'demo-entry-only-lazily: src/reads/r/sources.ts -> src/reads/r/demo.ts',
      'sources-name-only-their-demo: src/reads/r/sources.ts -> src/reads/q/demo.ts',
    ]);
    expect(all.filter((v) => v.startsWith('no-circular') && v.includes('src/reads/p/'))).not.toEqual([]);
    expect(all.filter((v) => v.includes('oracles') || v.includes('answer.ts'))).toEqual(['oracles-only-for-tests: src/reads/r/answer.ts -> src/reads/r/oracles.ts']);
    const found = all.map((v) => v.split(':')[0]);
    expect(new Set(found)).toEqual(new Set([
      'no-circular', 'domain-is-pure', 'domain-uses-ports-as-types', 'ports-are-interfaces', 'http-knows-ports-and-domain',
      'adapters-stay-below-http', 'dev-only-through-the-composition-root', 'sources-name-only-their-demo', 'demo-entry-only-lazily',
      'oracles-only-for-tests',
    ]));
  }, 60_000);
});

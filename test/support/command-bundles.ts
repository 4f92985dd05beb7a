/**
 * The commands the tests run as processes, each built once per test run into one JavaScript file
 * (esbuild, its packages bundled in). Run the operator's way, `node --import tsx scripts/<x>.ts`, a
 * command is tsx transpiling and resolving some hundreds of modules in each process: 1.5 to 2 s of CPU
 * for `proxies --help` here, where its bundle takes 0.3 to 0.4 s (docs/testing.md#how-long-it-takes).
 * test/runtime/command-bundles.test.ts runs each command both ways and compares what they print, and
 * the tests that ran `scripts/<x>.ts` by tsx run its bundle instead (test/support/run-script.ts).
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Where the bundles go: inside the repository, so a package left out of a bundle resolves from node_modules. */
export const BUNDLES_DIR = path.join(ROOT, 'node_modules', '.cache', 'pdas-command-bundles');
const INPUTS_FILE = path.join(BUNDLES_DIR, 'inputs.json');

/**
 * The scripts bundled: those the tests run, but build.ts (it runs its main only when it is the file node
 * was given) and reads.ts (it imports each read's operation.ts by a path made at run time, by tsx).
 */
export const BUNDLED_COMMANDS = ['audit.ts', 'conformance.ts', 'migrate.ts', 'proxies.ts', 'region-login.ts', 'sign-in-keys.ts'] as const;

/** The bundle `node` runs for `scripts/<script>`, or undefined when the script is not bundled. */
export function bundleOf(script: string): string | undefined {
  return (BUNDLED_COMMANDS as readonly string[]).includes(script) ? path.join(BUNDLES_DIR, script.replace(/\.ts$/, '.js')) : undefined;
}

/**
 * Left to node: pino and its worker threads find their worker files by `__dirname`, which a bundle
 * (one ES module) has not.
 */
const LEFT_OUT = ['pino', 'pino-*', 'thread-stream'];

/**
 * Each of the project's modules keeps its own `import.meta.url` and `import.meta.dirname`: the service
 * finds package.json, dist/app and the example policies relative to the module asking, which in one
 * bundle would all be the bundle's folder.
 */
const ownImportMeta: Plugin = {
  name: 'own-import-meta',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await readFile(args.path, 'utf8');
      const contents = source
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: 'ts' };
    });
  },
};

/** True when every file the last build read is older than its bundles (the list of inputs esbuild reported). */
async function bundlesAreCurrent(): Promise<boolean> {
  const inputs = await readFile(INPUTS_FILE, 'utf8').then((t) => JSON.parse(t) as { commands: string[]; files: string[] }).catch(() => undefined);
  if (inputs === undefined || inputs.commands.join() !== BUNDLED_COMMANDS.join()) return false;
  const built = Math.min(...await Promise.all(BUNDLED_COMMANDS.map((c) => stat(bundleOf(c) as string).then((s) => s.mtimeMs, () => 0))));
  const newest = Math.max(...await Promise.all(inputs.files.map((f) => stat(path.join(ROOT, f)).then((s) => s.mtimeMs, () => Infinity))));
  return newest < built;
}

/** Builds the bundles unless they are current; says whether it built. */
export async function buildCommandBundles(): Promise<boolean> {
  if (await bundlesAreCurrent()) return false;
  const result = await build({
    entryPoints: BUNDLED_COMMANDS.map((c) => path.join(ROOT, 'scripts', c)),
    outdir: BUNDLES_DIR, bundle: true, platform: 'node', format: 'esm', target: 'node22',
    external: LEFT_OUT, plugins: [ownImportMeta], metafile: true, absWorkingDir: ROOT, logLevel: 'warning',
    tsconfig: path.join(ROOT, 'tsconfig.json'),
    // Bundled CommonJS packages call require (node: modules, optional peers); an ES module has none of its own.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  });
  const files = Object.keys(result.metafile.inputs).filter((f) => !f.includes(':'));
  await writeFile(INPUTS_FILE, JSON.stringify({ commands: BUNDLED_COMMANDS, files }));
  return true;
}

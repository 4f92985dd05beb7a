/**
 * `virtual:access-log-names`, the patient app's names from the access log (names.ts), as each tool
 * that loads the app's modules resolves it: esbuild bundles the names as data (scripts/build-app.ts),
 * vitest loads names.ts itself (vitest.config.ts), and tsc reads its type from
 * app/src/access-log-names.d.ts. The operation table is loaded only when the module is asked for.
 */
import { fileURLToPath } from 'node:url';
import type { Plugin as EsbuildPlugin } from 'esbuild';

export const ACCESS_LOG_NAMES_MODULE = 'virtual:access-log-names';
const NAMES_FILE = fileURLToPath(new URL('./names.ts', import.meta.url));

/** The names module's source as the bundle gets it. */
export async function namesModuleSource(): Promise<string> {
  const names = await import('./names.js');
  return names.namesModuleSource();
}

export const accessLogNamesForEsbuild: EsbuildPlugin = {
  name: 'access-log-names',
  setup(b) {
    b.onResolve({ filter: /^virtual:access-log-names$/ }, (args) => ({ path: args.path, namespace: 'access-log-names' }));
    b.onLoad({ filter: /.*/, namespace: 'access-log-names' }, async () => ({ contents: await namesModuleSource(), loader: 'js' }));
  },
};

/** A vite plugin (the shape vitest takes; typed here without importing vite): the module re-exports names.ts. */
export const accessLogNamesForVitest = {
  name: 'access-log-names',
  resolveId: (id: string): string | undefined => (id === ACCESS_LOG_NAMES_MODULE ? `\0${ACCESS_LOG_NAMES_MODULE}` : undefined),
  load: (id: string): string | undefined => (id === `\0${ACCESS_LOG_NAMES_MODULE}` ? `export * from ${JSON.stringify(NAMES_FILE)};\n` : undefined),
};

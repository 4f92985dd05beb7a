/**
 * The service as `npm start` runs it: dist/server.js, transpiled from src/ by scripts/build.ts's
 * transpileService (esbuild, file by file; a second or two, and only files that changed are written).
 * A test that starts the service in processes of its own, again and again, starts this instead of
 * `node --import tsx src/server.ts`, which transpiles the service's modules at every start (4 s a
 * start on two quiet cores, 14 s on busy ones, against about 1 s).
 */
import path from 'node:path';
import { DIST, transpileService } from '../../scripts/build.js';

let built: Promise<string> | undefined;

/** The node arguments that start the built service; src/ is transpiled into dist/ once per worker process. */
export async function builtServiceArgs(): Promise<string[]> {
  built ??= transpileService().then(() => path.join(DIST, 'server.js'));
  return [await built];
}

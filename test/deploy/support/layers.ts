/**
 * What an image's own layers hold, file by file, including files a later layer deletes (they stay in
 * the image): `podman save` as a docker archive, and each layer past the base's listed with tar.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { podmanOk, run } from './podman.js';

/** Everything the Containerfile's runtime stage may add: the production dependencies, dist/, package.json, an empty /data. */
export const RUNTIME_PATHS = /^(app\/(node_modules\/.*|dist\/.*|package\.json)?|data\/|\.wh\.\.wh\..*)$/;

/** The paths (without a leading `/`, directories ending in `/`) in `layerFile` of the archive `archive`. */
function listLayer(archive: string, layerFile: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const extract = spawn('tar', ['-xOf', archive, layerFile], { stdio: ['ignore', 'pipe', 'inherit'] });
    const list = spawn('tar', ['-t'], { stdio: ['pipe', 'pipe', 'inherit'] });
    extract.stdout.pipe(list.stdin);
    let out = '';
    list.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    list.on('error', reject);
    list.on('exit', (code) => (code === 0 ? resolve(out.split('\n').filter(Boolean).map((p) => p.replace(/^\.?\//, ''))) : reject(new Error(`tar -t of ${layerFile} failed`))));
  });
}

/** Layers of `image` above those of `base` (what the Containerfile added), each as its list of paths. */
export async function ownLayers(image: string, base: string): Promise<string[][]> {
  const baseLayers = (JSON.parse(await podmanOk(['image', 'inspect', '--format', '{{json .RootFS.Layers}}', base])) as string[]).length;
  const dir = await mkdtemp(path.join(tmpdir(), 'pdas-deploy-layers-'));
  try {
    const archive = path.join(dir, 'image.tar');
    await podmanOk(['save', '--format', 'docker-archive', '-o', archive, image], 180_000);
    const manifest = await run('tar', ['-xOf', archive, 'manifest.json']);
    if (manifest.code !== 0) throw new Error(`no manifest.json in the saved image: ${manifest.stderr}`);
    const layers = (JSON.parse(manifest.stdout) as Array<{ Layers: string[] }>)[0]?.Layers ?? [];
    const own: string[][] = [];
    for (const layer of layers.slice(baseLayers)) own.push(await listLayer(archive, layer));
    return own;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** package.json's `start` script as argv: what the image's CMD must be. */
export async function startCommand(root: string): Promise<string[]> {
  const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  return pkg.scripts.start.split(/\s+/);
}

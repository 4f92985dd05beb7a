/**
 * The image built from a base that holds node alone (docs/operations.md#the-container-image): a
 * Debian root with the node binary, as debootstrap and the npm registry's `node` package make one,
 * with no npm, no CA bundle and no image configuration (a plain `podman import`). The build stages
 * then fetch npm themselves (scripts/image/ensure-npm.mjs); the image that runs stays the base plus
 * the service, with no npm in it, and starts, gets ready, passes its HEALTHCHECK and drains on SIGTERM.
 * The base is derived from the run's own base (npm and the CA bundle removed) and kept, by its
 * source's id, for the next run's layer cache.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../bench/util.js';
import { Instances } from './support/instances.js';
import { ownLayers, RUNTIME_PATHS } from './support/layers.js';
import { LIMITS, PODMAN_GLOBAL, podman, podmanOk, run } from './support/podman.js';
import { script } from './support/repository-script.js';

const IMAGE = 'localhost/patient-data-access:bare-base-test';
/** Inside a container of the run's base: npm's package, its links, npm's global settings and the CA bundle go. */
const STRIP = [
  'set -e',
  'npm=$(command -v npm)',
  'rm -rf "$(dirname "$(dirname "$(readlink -f "$npm")")")" "$npm" "$(command -v npx || echo /nonexistent)"',
  'rm -f /usr/local/etc/npmrc /etc/ssl/certs/ca-certificates.crt',
].join('; ');

/** `sh -c` in a throwaway container of `image` (no network): its exit code and output. */
const inImage = (image: string, command: string) =>
  podman(['run', '--rm', ...LIMITS, '--network', 'none', '--user', '0', '--entrypoint', 'sh', image, '-c', command], 60_000);

/** The run's base without npm or CA bundle, flattened by export and import so that no ENV, PATH or CMD is left. */
async function bareBase(source: string): Promise<string> {
  const id = (await podmanOk(['image', 'inspect', '--format', '{{.Id}}', source])).trim().slice(0, 12);
  const tag = `localhost/pdas-node-bare:${id}`;
  if ((await podman(['image', 'exists', tag])).code === 0) return tag;
  const container = `pdas-bare-${randomBytes(4).toString('hex')}`;
  try {
    await podmanOk(['run', '--name', container, ...LIMITS, '--network', 'none', '--user', '0', '--entrypoint', 'sh', source, '-c', STRIP], 60_000);
    const engine = ['podman', ...PODMAN_GLOBAL].join(' ');
    const imported = await run('sh', ['-c', `${engine} export ${container} | ${engine} import - ${tag}`], { timeoutMs: 180_000 });
    if (imported.code !== 0) throw new Error(`podman export | import failed: ${imported.stderr.slice(-1000)}`);
  } finally {
    await podman(['rm', '--force', container]);
  }
  return tag;
}

describe.skipIf(inject('deploySkip') !== '')('the image built from a base with node alone', () => {
  let base: string;
  let instances: Instances;

  beforeAll(async () => {
    base = await bareBase(inject('deployNodeImage'));
    const built = await script('scripts/build-image.sh', { NODE_IMAGE: base, IMAGE_TAG: IMAGE });
    expect(built).toBe(IMAGE);
  }, 900_000);

  afterAll(async () => {
    await instances?.removeAll();
  }, 120_000);

  it('starts from a base with node and no npm, no CA bundle and no configuration', async () => {
    expect((await inImage(base, 'node --version')).stdout).toMatch(/^v\d+\./);
    expect((await inImage(base, 'command -v npm || command -v npx || ls /etc/ssl/certs/ca-certificates.crt')).code).not.toBe(0);
    const config = JSON.parse(await podmanOk(['image', 'inspect', '--format', '{{json .Config}}', base])) as { Env?: string[]; Cmd?: string[] };
    expect([config.Env ?? [], config.Cmd ?? []]).toEqual([[], []]);
  });

  it('adds the service alone: the npm the build fetched stays in the build stages', async () => {
    const own = (await ownLayers(IMAGE, base)).flat();
    expect(own).toContain('app/dist/server.js');
    expect(own.filter((p) => !RUNTIME_PATHS.test(p))).toEqual([]);
    expect((await inImage(IMAGE, 'command -v npm')).code).not.toBe(0);
  }, 180_000);

  it('starts read-only, gets ready, passes its HEALTHCHECK and exits 0 on SIGTERM', async () => {
    instances = new Instances(IMAGE, `bare${randomBytes(3).toString('hex')}`, [[await freePort(), await freePort()]],
      { DEMO_AUTH_PORT: String(await freePort()), LOG_LEVEL: 'info' }, {});
    const [instance] = instances.list;
    if (instance === undefined) throw new Error('no instance');
    await instances.create(instance);
    const ready = await instances.ready(instance);
    expect(ready.ready, `${ready.last}\n${await instances.report(instance)}`).toBe(true);
    expect(await instances.healthcheck(instance)).toBe(0);
    const stopped = await instances.stop(instance);
    expect(stopped.exitCode, await instances.report(instance)).toBe(0);
    expect(await instances.logs(instance)).toContain('"msg":"shut down cleanly"');
  }, 120_000);
});

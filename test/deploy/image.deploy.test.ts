/**
 * The production image (docs/operations.md#the-container-image): what it runs and as whom, the probes
 * and the drain it declares, and that its own layers hold the built service and nothing else: no
 * source, no secret, no demo key, no DATA_DIR content, not the CA bundle the build borrowed.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ownLayers, RUNTIME_PATHS, startCommand } from './support/layers.js';
import { LIMITS, podman, podmanOk } from './support/podman.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const image = inject('deployImage');
const base = inject('deployNodeImage');

interface ImageConfig {
  User: string; Env: string[]; Cmd: string[]; WorkingDir: string; StopSignal: string;
  Volumes: Record<string, unknown>; ExposedPorts: Record<string, unknown>; Healthcheck?: { Test: string[] };
}
/** podman keeps the HEALTHCHECK beside Config, docker inside it. */
interface Inspected { Config: ImageConfig; Size: number; Healthcheck?: { Test: string[] } }

const inspect = async (ref: string): Promise<Inspected> => (JSON.parse(await podmanOk(['image', 'inspect', ref])) as Inspected[])[0] as Inspected;
const healthcheckOf = (i: Inspected): string[] => (i.Healthcheck ?? i.Config.Healthcheck)?.Test ?? [];
/** Key material, demo credentials and environment files, by name. */
const SECRET_NAME = /(\.(key|pem|p12|pfx|jks)|(^|\/)\.env(\..*)?|(^|\/)demo-[^/]*\.json|(^|\/)demo-subscription-key|(^|\/)\.?npmrc|(^|\/)id_(rsa|ed25519)[^/]*)$/;

describe.skipIf(inject('deploySkip') !== '')('the production image', () => {
  let config: ImageConfig;
  let healthcheck: string[];
  let own: string[];

  beforeAll(async () => {
    const inspected = await inspect(image);
    config = inspected.Config;
    healthcheck = healthcheckOf(inspected);
    own = (await ownLayers(image, base)).flat();
  }, 180_000);

  it('runs node with the flags of package.json\'s start on dist/server.js, as a numeric non-root user, with DATA_DIR a volume at /data', async () => {
    expect(config.Cmd).toEqual(await startCommand(ROOT));
    expect(config.User).toMatch(/^[1-9]\d*(:\d+)?$/);
    expect(config.WorkingDir).toBe('/app');
    expect(config.Env).toContain('DATA_DIR=/data');
    expect(Object.keys(config.Volumes ?? {})).toEqual(['/data']);
  });

  it('declares its probe and its drain: HEALTHCHECK on /health/live with node, STOPSIGNAL SIGTERM, the API and metrics ports', () => {
    expect(healthcheck.slice(0, 2)).toEqual(['CMD', 'node']);
    expect(healthcheck.join(' ')).toContain('/health/live');
    expect(config.StopSignal).toBe('SIGTERM');
    expect(Object.keys(config.ExposedPorts ?? {}).sort()).toEqual(['8080/tcp', '9464/tcp']);
  });

  it('adds only node_modules, dist/, package.json and an empty /data: no source, secret, demo key or build CA bundle, deleted or not', () => {
    expect(own.length).toBeGreaterThan(1000);
    expect(own.filter((p) => !RUNTIME_PATHS.test(p))).toEqual([]);
    expect(own.filter((p) => SECRET_NAME.test(p))).toEqual([]);
    expect(own.filter((p) => p.startsWith('data/') && p !== 'data/')).toEqual([]);
    expect(own).toContain('app/dist/server.js');
    expect(own).toContain('app/dist/app/index.html');
  });

  it('holds no key, demo credential or environment file anywhere in its file system, base included (CA certificates aside)', async () => {
    const found = await podmanOk(['run', '--rm', ...LIMITS, '--network', 'none', '--user', '0', '--entrypoint', 'find', image, '/', '-xdev',
      '-not', '-path', '/etc/ssl/certs/*', '-not', '-path', '/usr/share/ca-certificates/*', '(', '-name', '*.key', '-o', '-name', '*.pem',
      '-o', '-name', '*.p12', '-o', '-name', '*.pfx', '-o', '-name', 'demo-*.json', '-o', '-name', 'demo-subscription-key', '-o', '-name', '.env',
      '-o', '-name', '.npmrc', ')', '-print'], 60_000);
    expect(found.split('\n').filter(Boolean)).toEqual([]);
  });

  it('adds under 150 MB to its base', async () => {
    const added = (await inspect(image)).Size - (await inspect(base)).Size;
    console.log(`test:deploy: ${image} is ${(await inspect(image)).Size / 1e6 | 0} MB, ${added / 1e6 | 0} MB above ${base}`);
    expect(added).toBeLessThan(150e6);
  });

  it('runs with a read-only root: the user writes DATA_DIR and /tmp, and nothing else', async () => {
    const probe = "const fs = require('node:fs'); const w = (p) => { try { fs.writeFileSync(p, 'x'); return 'written'; } catch (e) { return e.code; } };"
      + "console.log(JSON.stringify([w('/data/probe'), w('/tmp/probe'), w('/app/probe'), w('/app/dist/probe'), process.getuid()]))";
    const result = await podman(['run', '--rm', ...LIMITS, '--network', 'none', '--read-only', '--tmpfs', '/tmp', image, 'node', '-e', probe], 60_000);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout.trim())).toEqual(['written', 'written', 'EROFS', 'EROFS', 10001]);
  });
});

// Run by the Containerfile's build stages (docs/operations.md#the-container-image): leaves npm beside
// node when the base image has none. The official Node image ships npm; a local base made from
// debootstrap and the npm registry's `node` package holds the node binary alone, and the build's
// `npm ci` would find no npm. The image that runs never gets this npm: only the build stages do.
//
// Plain JavaScript on node's own modules, since nothing else is installed yet. It reads the npm
// registry (`npm_config_registry`, default registry.npmjs.org), takes the newest release of npm's
// major `NPM_MAJOR` (default 11, the one Node 24 bundles), checks the tarball's sha512 against the
// registry's `integrity` before unpacking it, and links `npm` and `npx` in node's own folder.
// A TLS-inspecting proxy's CA comes in through NODE_EXTRA_CA_CERTS, as for npm itself.
import { Buffer } from 'node:buffer';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

const say = (text) => process.stdout.write(`ensure-npm: ${text}\n`);

function npmOnPath() {
  try {
    return execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The newest x.y.z (no pre-release) of `major` among the registry's versions of npm. */
function newestOfMajor(versions, major) {
  const parse = (v) => v.split('.').map(Number);
  const releases = Object.keys(versions).filter((v) => new RegExp(`^${major}\\.\\d+\\.\\d+$`).test(v));
  releases.sort((a, b) => {
    const [x, y] = [parse(a), parse(b)];
    return x[1] - y[1] || x[2] - y[2];
  });
  return releases.at(-1);
}

async function fetchOk(url, headers = {}) {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response;
}

async function main() {
  const found = npmOnPath();
  if (found !== undefined) {
    say(`the base has npm (${found}); nothing to do`);
    return;
  }
  const major = process.env.NPM_MAJOR ?? '11';
  if (!/^\d+$/.test(major)) throw new Error(`NPM_MAJOR must be a major version such as 11, not ${JSON.stringify(major)}`);
  const registry = (process.env.npm_config_registry ?? 'https://registry.npmjs.org/').replace(/\/?$/, '/');

  // The abbreviated document (what npm itself reads): versions with their tarball and integrity only.
  const packument = await (await fetchOk(`${registry}npm`, { accept: 'application/vnd.npm.install-v1+json' })).json();
  const version = newestOfMajor(packument.versions ?? {}, major);
  if (version === undefined) throw new Error(`the registry ${registry} lists no npm ${major}.x.y`);
  const { tarball, integrity } = packument.versions[version].dist;
  const [algorithm, expected] = String(integrity).split('-', 2);
  if (algorithm !== 'sha512' || expected === undefined) throw new Error(`npm ${version} has no sha512 integrity in the registry`);

  const bytes = Buffer.from(await (await fetchOk(tarball)).arrayBuffer());
  const actual = createHash('sha512').update(bytes).digest('base64');
  if (actual !== expected) throw new Error(`npm ${version}'s tarball does not match its registry integrity`);

  // As the official image lays it out: {prefix}/lib/node_modules/npm, links beside node.
  const bin = path.dirname(process.execPath);
  const home = path.join(path.dirname(bin), 'lib', 'node_modules', 'npm');
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  execFileSync('tar', ['-xzf', '-', '-C', home, '--strip-components=1', '--no-same-owner'], { input: bytes });
  for (const [name, script] of [['npm', 'npm-cli.js'], ['npx', 'npx-cli.js']]) {
    const link = path.join(bin, name);
    if (!existsSync(link)) symlinkSync(path.relative(bin, path.join(home, 'bin', script)), link);
  }
  say(`npm ${version} from ${registry} (sha512 checked) in ${home}, linked in ${bin}`);
}

main().catch((err) => {
  process.stderr.write(`ensure-npm: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

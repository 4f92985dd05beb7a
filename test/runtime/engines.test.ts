/**
 * Issue 15 item 1: the service runs on the supported Node.js LTS lines (22 and 24), and nothing it
 * installs warns on them. npm only warns about a package's `engines` when it installs it on the
 * runtime at hand, so this reads the lock file instead and checks every package against the oldest
 * release of each supported line, whatever Node runs the test.
 */
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (file: string): string => readFileSync(new URL(file, root), 'utf8');

interface LockedPackage { version?: string; engines?: Record<string, string> | string[] }
const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, LockedPackage> };
const manifest = JSON.parse(read('package.json')) as { engines: { node: string } };
const nvmrc = read('.nvmrc').trim();

/** The oldest release of each supported line that the project admits (22.13 is the first 22 every tool accepts). */
const SUPPORTED = ['22.13.0', '24.0.0'];

/** The lock's `engines.node` of every installed package, by path; an array form (obsolete npm syntax) names no node range. */
function nodeRanges(): [string, string][] {
  return Object.entries(lock.packages)
    .filter(([path]) => path !== '')
    .flatMap(([path, pkg]) => {
      const engines = pkg.engines;
      return engines && !Array.isArray(engines) && engines.node !== undefined ? [[path, engines.node] as [string, string]] : [];
    });
}

describe('issue 15 item 1: Node 22 and 24 LTS', () => {
  it('engines.node admits 22.13+ and 24, and no longer the end-of-life 20', () => {
    for (const version of SUPPORTED) expect(semver.satisfies(version, manifest.engines.node), version).toBe(true);
    expect(semver.satisfies('20.19.0', manifest.engines.node)).toBe(false);
    expect(semver.satisfies('22.12.0', manifest.engines.node)).toBe(false);
  });

  it('.nvmrc names a supported major', () => {
    expect(nvmrc).toMatch(/^\d+$/);
    expect(semver.satisfies(`${nvmrc}.0.0`, manifest.engines.node)).toBe(true);
  });

  it('every locked package accepts the oldest supported 22 and 24 releases', () => {
    const ranges = nodeRanges();
    // The lock holds hundreds of packages; a handful of them declaring engines would mean it was not read.
    expect(ranges.length).toBeGreaterThan(50);
    const refused = ranges.flatMap(([path, range]) =>
      SUPPORTED.filter((version) => !semver.satisfies(version, range)).map((version) => `${path} (${range}) refuses ${version}`));
    expect(refused).toEqual([]);
  });

  it('the Node type definitions are those of the oldest supported line', () => {
    const types = lock.packages['node_modules/@types/node']?.version ?? '';
    expect(semver.major(types)).toBe(22);
  });
});

/**
 * `npm run bench` part 12 (issue 53): what a read as a proxy costs beside the same read by the patient
 * (docs/proxies.md#what-a-grant-opens). One service with PROXY_GRANTS=on and the grant store in DATA_DIR
 * (a file, the embedded default), seeded with one active grant of the bench patient's lab results to
 * a demo person; the bench patient's 20 KB lab-results read, by the patient and by the proxy naming
 * them in the `patient` header, in alternating rounds so that a shared machine's drift falls on both.
 * The proxy's read adds the delegation check (the EHR's registry and the grant store) to the same
 * read, policy and answer. Target: at most 10 % more server CPU per request.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import type { GrantTableState } from '../src/adapters/proxy-grants/grant-table.js';
import { fmt, median, table } from './util.js';

export const PROXY_ROUNDS = 5;
/** The read both make: the bench patient's ~20 KB lab results. */
export const PROXY_READ_PATH = '/patients/labresults/';
export const PROXY_READ_SCOPE = 'user/LabResult-read';
/** The proxy: Tolvan of the demo people, whom the embedded EHR knows. */
export const PROXY_GRANTEE = '191212121212';
/** The target: a proxy's read costs at most this much more server CPU than the patient's own. */
export const PROXY_MAX_EXTRA = 0.10;

/**
 * Writes DATA_DIR/proxy-grants.json as the file store keeps it: one grant of `grantor`'s lab results
 * to PROXY_GRANTEE, accepted, from a minute ago and until revoked.
 */
export function seedProxyGrant(dataDir: string, grantor: string, nowMs = Date.now()): void {
  mkdirSync(dataDir, { recursive: true });
  const at = nowMs - 60_000;
  const state: GrantTableState = {
    grants: [{
      id: 'b3a1c0ffee0000000000000000000053', state: 'active', grantor, grantee: PROXY_GRANTEE, granteeName: 'Tolvan Tolvansson',
      categories: ['LabResult'], validFromMs: at, createdMs: at, changedMs: at,
    }],
    events: [],
    seq: 0,
  };
  writeFileSync(path.join(dataDir, 'proxy-grants.json'), JSON.stringify(state), { mode: 0o600 });
}

/**
 * Before anything is measured: both reads answer 200 with the same body, and the grant opens that
 * read only (the proxy's medications read is 403), so the proxy's figure is a proxy's read.
 */
export async function checkProxyReads(origin: string, own: Record<string, string>, proxy: Record<string, string>, otherPath: string): Promise<void> {
  const get = async (urlPath: string, headers: Record<string, string>): Promise<{ status: number; body: string }> => {
    const res = await request(origin + urlPath, { headers });
    return { status: res.statusCode, body: await res.body.text() };
  };
  const mine = await get(PROXY_READ_PATH, own);
  const theirs = await get(PROXY_READ_PATH, proxy);
  if (mine.status !== 200 || theirs.status !== 200) {
    throw new Error(`${PROXY_READ_PATH}: the patient's read ${mine.status}, the proxy's ${theirs.status}: ${theirs.body.slice(0, 300)}`);
  }
  if (mine.body !== theirs.body) throw new Error(`${PROXY_READ_PATH}: the proxy's answer is not the patient's`);
  if (mine.body.length < 10_000) throw new Error(`${PROXY_READ_PATH}: ${mine.body.length} bytes, expected the ~20 KB fixture`);
  const beyond = await get(otherPath, proxy);
  if (beyond.status !== 403) throw new Error(`${otherPath}: the proxy was answered ${beyond.status}, expected 403 (the grant is of lab results only)`);
}

export interface ProxyRun {
  rps: number;
  p99Ms: number;
  cpuUsPerRequest: number;
  errors: number;
  non2xx: number;
}

export interface ProxyReadResult {
  own: ProxyRun[];
  proxy: ProxyRun[];
}

/** The proxy's median CPU per request over the patient's, minus one (0.05: 5 % more). */
export const proxyExtra = (r: ProxyReadResult): number =>
  median(r.proxy.map((x) => x.cpuUsPerRequest)) / median(r.own.map((x) => x.cpuUsPerRequest)) - 1;

const rounds = (runs: ProxyRun[], pick: (r: ProxyRun) => number, digits = 0): string => runs.map((r) => fmt(pick(r), digits)).join(' / ');

export function proxyReadTable(r: ProxyReadResult): string {
  const row = (who: string, runs: ProxyRun[]): string[] => [
    who, rounds(runs, (x) => x.cpuUsPerRequest), fmt(median(runs.map((x) => x.cpuUsPerRequest))), fmt(median(runs.map((x) => x.rps))),
    fmt(median(runs.map((x) => x.p99Ms)), 1), `${runs.reduce((n, x) => n + x.errors, 0)} / ${runs.reduce((n, x) => n + x.non2xx, 0)}`,
  ];
  return `## A read as a proxy (part 12: ${PROXY_READ_PATH} ~20 KB, 50 connections, ${PROXY_ROUNDS} alternating rounds, the order swapped each round, file grant store)\n\n${table(
    ['who reads', 'CPU µs/req (rounds)', 'median CPU µs/req', 'median req/s', 'median p99 ms', 'errors / non-2xx'],
    [row('12a. the patient', r.own), row('12b. a proxy with an active grant', r.proxy)],
  )}\n\nthe proxy's read: ${proxyExtra(r) >= 0 ? '+' : ''}${fmt(proxyExtra(r) * 100, 1)} % server CPU per request (target ≤ ${fmt(PROXY_MAX_EXTRA * 100)} %)`;
}

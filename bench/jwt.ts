/**
 * Token verification micro-benchmark: µs per `JwtAccessTokenVerifier.verify` for a token already
 * verified (the verified-token cache: what every request after a caller's first pays) and for
 * tokens never seen (a full RS256 verification with the JWKS in memory).
 *
 *   node --import tsx bench/jwt.ts [--json]
 */
import { JwtAccessTokenVerifier } from '../src/adapters/auth-jwks/jwt-access-token-verifier.js';
import { AUDIENCE, BenchIssuer } from './issuer.js';
import { BENCH_PATIENT } from './fixtures.js';
import { fmt, median, pinSelf, table, write } from './util.js';

export interface JwtResult {
  cachedUs: number;
  uncachedUs: number;
}

const SCOPE = 'user/JournalNote-read user/MedicationPrescription-read';

async function timePerCall(calls: number, run: (i: number) => Promise<unknown>): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < calls; i++) await run(i);
  return ((performance.now() - start) * 1000) / calls;
}

export async function runJwtBench(): Promise<JwtResult> {
  const issuer = await BenchIssuer.start();
  try {
    const verifier = new JwtAccessTokenVerifier({
      issuer: issuer.issuer, audience: AUDIENCE, jwksUrl: issuer.jwksUrl, patientClaim: 'patient',
      clock: { now: () => Date.now() }, onWarning: () => undefined,
    });
    const token = await issuer.sign(BENCH_PATIENT, SCOPE);
    await verifier.verify(token);
    const fresh = await Promise.all(Array.from({ length: 600 }, (_, i) => issuer.sign(BENCH_PATIENT, SCOPE, { jti: `t${i}` })));
    const cached: number[] = [];
    for (let round = 0; round < 5; round++) cached.push(await timePerCall(100_000, () => verifier.verify(token)));
    const uncached: number[] = [];
    for (let round = 0; round < 3; round++) {
      uncached.push(await timePerCall(200, (i) => verifier.verify(fresh[round * 200 + i] ?? token)));
    }
    return { cachedUs: median(cached), uncachedUs: median(uncached) };
  } finally {
    await issuer.close();
  }
}

export const jwtTable = (r: JwtResult): string => table(
  ['verify()', 'µs per call'],
  [['repeat token (verified-token cache)', fmt(r.cachedUs, 2)], ['new token (RS256 signature check)', fmt(r.uncachedUs, 1)]],
);

if (import.meta.url === `file://${process.argv[1]}`) {
  pinSelf(0);
  const result = await runJwtBench();
  if (process.argv.includes('--json')) write(JSON.stringify(result));
  else write(jwtTable(result));
}

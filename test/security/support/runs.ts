import { describe } from 'vitest';
import { EHR_VARIANTS, type EhrVariant } from '../../support/test-app.js';

/**
 * Event-loop-delay load shedding switched off: on a busy 2-core machine it can answer 503 at random,
 * and these tests assert exact statuses. Shedding has its own test in test/http/operability.
 * Sharing on (PROXY_GRANTS=on), so its routes are attacked as every other; the open-grant limit out of
 * reach, as each valid grant the suites send names a new grantee (routes.ts freshGrantee). Subscriptions
 * on (SUBSCRIPTIONS=on), so the FHIR door's Subscription paths are attacked too.
 */
export const STEADY = { protection: { pressureMaxEventLoopDelayMs: 0 }, proxies: { invitationDays: 7, maxGrants: 1_000_000, maxGrantsPerDay: 1_000_000, maxGrantsToOnePerDay: 100 }, subscriptions: true } as const;

/**
 * How many cases a property of the security suites checks over `variant`. The fhir-r4 run sends
 * every request that passes the edge through a real FHIR server in this process (a search or more
 * per read), so it checks a quarter of the embedded run's cases, at least 25: the properties are the
 * same, the suite's time stays in check, and the embedded run keeps the full count.
 */
export function runsOver(variant: EhrVariant, runs: number): number {
  return variant === 'fhir-r4' ? Math.max(25, Math.ceil(runs / 4)) : runs;
}

/**
 * The options of a describe block run over both EHRs: a test over fhir-r4 on a shared, loaded machine
 * can take several times the default 20 s (every read is one or more FHIR searches); a time-out is
 * no speed target (that is `npm run bench`), so the block gets room rather than fewer checks.
 */
const OVER_BOTH_EHRS = { timeout: 180_000 } as const;

/** The describe block `over the <variant> EHR` of `body`, once for each EHR back-end (EHR_VARIANTS), with OVER_BOTH_EHRS. */
export const overBothEhrs = (body: (variant: EhrVariant) => void): void => describe.each(EHR_VARIANTS)('over the %s EHR', OVER_BOTH_EHRS, body);

/**
 * SUBSCRIPTIONS and its settings (docs/running.md#notifications-fhir-subscriptions): FHIR Subscriptions
 * with a rest-hook channel, on unless turned off. Every endpoint prefix is held to the endpoint rules
 * at start (src/domain/notifications/endpoint-rules.ts), SUBSCRIPTION_ENDPOINTS' and the clients file's
 * `notification_endpoints` alike, so a prefix no endpoint could ever be allowed under stops the start,
 * named, instead of refusing every subscription later. Loopback and a short poll only in demo mode
 * unless set.
 */
import { prefixProblem } from '../domain/notifications/endpoint-rules.js';

type Env = Readonly<Record<string, string | undefined>>;
type Fail = (message: string) => Error;

export interface SubscriptionSettings {
  /** SUBSCRIPTION_ENDPOINTS: URL prefixes every app's notifications may go to (an app registered in the clients file also has its own). */
  endpoints: readonly string[];
  /** SUBSCRIPTION_ALLOW_LOOPBACK: `http` endpoints on a loopback address literal too, and loopback addresses at all. */
  allowLoopback: boolean;
  /** SUBSCRIPTION_POLL_SECONDS: how often a subscribed patient's records are looked at. */
  pollSeconds: number;
  /** SUBSCRIPTION_EHR_READS_PER_SECOND: the most EHR reads polling makes, across every instance (a fraction allowed). */
  ehrReadsPerSecond: number;
  /** SUBSCRIPTION_RETRY_MINUTES: how long a failing delivery is retried before the subscription is `error`. */
  retryMinutes: number;
  /** SUBSCRIPTION_EVENT_DAYS: how long events are kept for `$events`. */
  eventDays: number;
}

export interface SubscriptionConfig {
  /** Undefined: SUBSCRIPTIONS=off, no Subscription on /fhir. */
  subscriptions: SubscriptionSettings | undefined;
}

/** A client of the clients file, as far as its notification endpoints go (src/adapters/auth-server/clients.ts). */
export interface ClientEndpoints {
  metadata: { client_id: string };
  notificationEndpoints?: readonly string[];
}

const text = (env: Env, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

function whole(env: Env, name: string, fallback: number, max: number, unit: string, fail: Fail): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > max) throw fail(`${name} must be an integer from 1 to ${max} (${unit})`);
  return n;
}

function readsPerSecond(env: Env, fail: Fail): number {
  const raw = text(env, 'SUBSCRIPTION_EHR_READS_PER_SECOND');
  if (raw === undefined) return 20;
  const n = Number(raw);
  if (!/^\d+(?:\.\d+)?$/.test(raw) || !(n > 0) || n > 10_000) {
    throw fail('SUBSCRIPTION_EHR_READS_PER_SECOND must be a number above 0 and at most 10000 (EHR reads a second by polling, all instances together; e.g. 0.5 for one every two seconds)');
  }
  return n;
}

function flag(env: Env, name: string, fallback: boolean, fail: Fail): boolean {
  const raw = text(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (raw !== 'true' && raw !== 'false') throw fail(`${name} must be true or false`);
  return raw === 'true';
}

/** Each prefix of `where`, held to the endpoint rules; a refusal names the entry by its place, never its text (a URL may hold a password). */
function checkedPrefixes(prefixes: readonly string[], where: string, allowLoopback: boolean, fail: Fail): readonly string[] {
  for (const [i, prefix] of prefixes.entries()) {
    const problem = prefixProblem(prefix, allowLoopback);
    if (problem !== undefined) throw fail(`${where} entry ${i + 1} ${problem}`);
  }
  return prefixes;
}

/** `clients`: the clients file's, whose `notification_endpoints` are held to SUBSCRIPTION_ALLOW_LOOPBACK here (the file was read without it). */
export function readSubscriptionSettings(env: Env, demo: boolean, clients: readonly ClientEndpoints[], fail: Fail): SubscriptionConfig {
  const switched = text(env, 'SUBSCRIPTIONS') ?? 'on';
  if (switched !== 'on' && switched !== 'off') throw fail('SUBSCRIPTIONS must be on or off (off removes Subscription from /fhir)');
  if (switched === 'off') return { subscriptions: undefined };
  const allowLoopback = flag(env, 'SUBSCRIPTION_ALLOW_LOOPBACK', demo, fail);
  const endpoints = checkedPrefixes((text(env, 'SUBSCRIPTION_ENDPOINTS') ?? '').split(/\s+/).filter((p) => p !== ''), 'SUBSCRIPTION_ENDPOINTS', allowLoopback, fail);
  for (const client of clients) {
    checkedPrefixes(client.notificationEndpoints ?? [], `SIGN_IN_CLIENTS_FILE client ${client.metadata.client_id}: notification_endpoints`, allowLoopback, fail);
  }
  return {
    subscriptions: {
      endpoints,
      allowLoopback,
      pollSeconds: whole(env, 'SUBSCRIPTION_POLL_SECONDS', demo ? 10 : 60, 3600, 'seconds between two looks at a subscribed patient\'s records', fail),
      ehrReadsPerSecond: readsPerSecond(env, fail),
      retryMinutes: whole(env, 'SUBSCRIPTION_RETRY_MINUTES', 60, 10_080, 'minutes a failing delivery is retried before the subscription is error', fail),
      eventDays: whole(env, 'SUBSCRIPTION_EVENT_DAYS', 30, 3650, 'days events are kept for $events', fail),
    },
  };
}

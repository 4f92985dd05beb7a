/**
 * PROXY_GRANTS and its five limits (docs/proxies.md#for-a-region). Off outside demo mode: a region
 * turns sharing on only when its law allows it (in Sweden, the Patient Data Act as the Supreme
 * Administrative Court read it in 2018 does not; EHDS Art. 4(2) will require it).
 */
import type { ProxySettings } from '../domain/proxies/grant.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface ProxyGrantSettings {
  /** Undefined: PROXY_GRANTS=off, every sharing route answers 403 and nothing is listed in discovery. */
  proxies: ProxySettings | undefined;
}

const ON_OFF = ['on', 'off'] as const;

function whole(env: Env, name: string, fallback: number | undefined, min: number, max: number, fail: (m: string) => Error): number | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) throw fail(`${name} must be an integer from ${min} to ${max}`);
  return n;
}

export function readProxySettings(env: Env, demo: boolean, fail: (m: string) => Error): ProxyGrantSettings {
  const raw = env.PROXY_GRANTS?.trim() ?? '';
  const switched = raw === '' ? (demo ? 'on' : 'off') : raw;
  if (!(ON_OFF as readonly string[]).includes(switched)) {
    throw fail('PROXY_GRANTS must be on or off (off unless the region\'s law allows patients to share their record, docs/proxies.md)');
  }
  if (switched === 'off') return { proxies: undefined };
  const maxDays = whole(env, 'PROXY_MAX_DAYS', undefined, 1, 36_500, fail);
  return {
    proxies: {
      invitationDays: whole(env, 'PROXY_INVITATION_DAYS', 7, 1, 365, fail) as number,
      maxGrants: whole(env, 'PROXY_MAX_GRANTS', 10, 1, 1000, fail) as number,
      maxGrantsPerDay: whole(env, 'PROXY_MAX_GRANTS_PER_DAY', 20, 1, 10_000, fail) as number,
      maxGrantsToOnePerDay: whole(env, 'PROXY_MAX_GRANTS_TO_ONE_PER_DAY', 3, 1, 100, fail) as number,
      ...(maxDays === undefined ? {} : { maxDays }),
    },
  };
}

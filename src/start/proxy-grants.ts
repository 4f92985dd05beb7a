/**
 * Sharing (docs/proxies.md), put together when PROXY_GRANTS is on: the grant store (PostgreSQL when
 * DATABASE_URL is set, shared by every instance; else a file in DATA_DIR), the use case, and the
 * recording of lapses and expiries, each audited before it is kept.
 */
import { randomUUID } from 'node:crypto';
import { FileGrantStore } from '../adapters/proxy-grants/file-grant-store.js';
import { newGrantId } from '../adapters/proxy-grants/new-grant-id.js';
import type { ProxySettings } from '../domain/proxies/grant.js';
import { personFacts } from '../domain/proxies/people.js';
import { ProxyGrants } from '../domain/proxies/proxy-grants.js';
import type { AuditTrail, OutcomeRecord } from '../ports/audit-trail.port.js';
import type { Clock } from '../ports/clock.port.js';
import type { EhrRecords } from '../ports/ehr-records.port.js';
import type { ProxyGrantStore, StoredGrant } from '../ports/proxy-grants.port.js';
import type { Config } from './config.js';
import type { Lifecycle } from './lifecycle.js';
import { repeatUntilClosed } from './repeated-turns.js';

/** How often an instance looks for lapses and expiries to record; access never waits for it (every request decides by time). */
export const SETTLE_INTERVAL_MS = 60_000;

/** The actor of what time does to a grant: the service itself, no person and no app. */
export const SERVICE_ACTOR = { issuer: 'urn:pdas:service', subject: 'proxy-grants' } as const;

/** The audit record of a lapse or an expiry, in the grantor's access log. */
export function settledRecordOf(grant: StoredGrant, kind: 'lapsed' | 'expired', now: number): OutcomeRecord {
  const id = randomUUID();
  return {
    time: new Date(now).toISOString(), requestId: id, serviceRequestId: id, operation: kind === 'lapsed' ? 'lapseProxy' : 'expireProxy',
    actor: { ...SERVICE_ACTOR }, patientId: grant.grantor, proxyGrantId: grant.id, delegation: 'service',
    sourceAddress: '', outcome: 'allowed', status: 200,
  };
}


/**
 * DATABASE_URL: the PostgreSQL store in its own schema, shared by every instance (its module imported
 * only then, as the audit store's); else the file in DATA_DIR.
 */
export async function openGrantStore(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<ProxyGrantStore> {
  if (config.databaseUrl === undefined) return FileGrantStore.open(config.dataDir);
  const { PostgresGrantStore } = await import('../adapters/proxy-grants/postgres-grant-store.js');
  return PostgresGrantStore.open({ connectionString: config.databaseUrl });
}

export interface Sharing {
  store: ProxyGrantStore;
  grants: ProxyGrants;
}

/** The grant store and use case, with lapses and expiries recorded every SETTLE_INTERVAL_MS until the service closes. */
export async function openSharing(config: Config, settings: ProxySettings, ehr: EhrRecords, clock: Clock, trail: () => AuditTrail, life: Lifecycle,
  onSettleFailure: (err: unknown) => void): Promise<Sharing> {
  const store = await openGrantStore(config);
  life.onClose(() => store.close());
  const grants = new ProxyGrants({
    store, clock, zone: config.ehrTimezone, settings, facts: (person) => personFacts(ehr, person), newId: newGrantId,
  });
  repeatUntilClosed(SETTLE_INTERVAL_MS, () => grants.settleDue((grant, kind) => trail().append(settledRecordOf(grant, kind, clock.now()))), onSettleFailure, life);
  return { store, grants };
}

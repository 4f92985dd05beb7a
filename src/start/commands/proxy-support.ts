/**
 * What `npm run proxies` works with (docs/contract.md §11 "Support"): the grants and the audit trail
 * the service uses (PostgreSQL when DATABASE_URL is set, else DATA_DIR), the use case over them, the
 * audit records of a support revocation and the lines a list prints.
 */
import { randomUUID } from 'node:crypto';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { DEMO_CHAIN_KEY_FILE, keptDemoChainKeys, type ChainKey } from '../../adapters/audit-chain/chain-keys.js';
import { FileAuditTrail } from '../../adapters/audit-file/file-audit-trail.js';
import { SystemClock } from '../../adapters/clock/system-clock.js';
import type { GrantView, ProxySettings } from '../../domain/proxies/grant.js';
import { ProxyGrants } from '../../domain/proxies/proxy-grants.js';
import type { AttemptRecord, AuditTrail, OutcomeRecord } from '../../ports/audit-trail.port.js';
import type { ProxyGrantStore, StoredGrant } from '../../ports/proxy-grants.port.js';
import { readAuditChainKeys } from '../audit-chain-settings.js';
import { openGrantStore } from '../proxy-grants.js';
import { readProxySettings } from '../proxy-settings.js';
import { auditFileOf } from '../start-line.js';

/** The actor of a support revocation: the region's support staff, the operator by name. */
export const SUPPORT_ISSUER = 'urn:pdas:support';

/** The audit schema the service writes to (src/start/audit-selection.ts). */
const AUDIT_SCHEMA = 'audit';

type Env = Readonly<Record<string, string | undefined>>;

export interface Where {
  databaseUrl: string | undefined;
  dataDir: string;
  zone: string;
  settings: ProxySettings;
}

const setting = (env: Env, name: string): string | undefined => {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
};

/**
 * The service's places and limits, read as it reads them. The limits are read whether or not
 * PROXY_GRANTS is on: support may end grants a region has since stopped offering.
 */
export function whereOf(env: Env, fail: (m: string) => Error): Where {
  const { proxies } = readProxySettings({ ...env, PROXY_GRANTS: 'on' }, true, fail);
  return {
    databaseUrl: setting(env, 'DATABASE_URL'),
    dataDir: path.resolve(setting(env, 'DATA_DIR') ?? './.data'),
    zone: setting(env, 'EHR_TIMEZONE') ?? 'Europe/Stockholm',
    settings: proxies as ProxySettings,
  };
}

export const storeName = (where: Where): string =>
  (where.databaseUrl === undefined ? `file ${path.join(where.dataDir, 'proxy-grants.json')}` : 'PostgreSQL schema proxy_grants');

export async function openGrants(where: Where): Promise<{ store: ProxyGrantStore; grants: ProxyGrants }> {
  const store = await openGrantStore(where);
  const grants = new ProxyGrants({
    store, clock: new SystemClock(), zone: where.zone, settings: where.settings,
    // Support never accepts a grant, so no one's name is ever looked up here: staff see the names as kept.
    facts: () => Promise.reject(new Error('support looks up no one')),
    namesAsKept: true,
    newId: () => {
      throw new Error('support gives no grant');
    },
  });
  return { store, grants };
}

/** AUDIT_CHAIN_KEY_FILE's signing key as the service has it; else the demo's key kept in DATA_DIR, if one was made; else none. */
async function chainKey(env: Env, dataDir: string, fail: (m: string) => Error): Promise<ChainKey | undefined> {
  const keys = readAuditChainKeys(env, fail);
  if (keys !== undefined) return keys.signing;
  const demo = path.join(dataDir, DEMO_CHAIN_KEY_FILE);
  if (!await access(demo).then(() => true, () => false)) return undefined;
  return (await keptDemoChainKeys(dataDir)).keys.signing;
}

/** The audit trail the service writes to, keyed as it keys it. */
export async function openTrail(env: Env, where: Where, fail: (m: string) => Error, warn: (m: string) => void): Promise<AuditTrail> {
  const key = await chainKey(env, where.dataDir, fail);
  // Beside the running service: its write under way is waited for, never cut off as a torn tail.
  if (where.databaseUrl === undefined) return FileAuditTrail.open(auditFileOf(where), { ...(key === undefined ? {} : { key }), onWarning: warn, beside: true });
  const { PostgresAuditTrail } = await import('../../adapters/audit-postgres/postgres-audit-trail.js');
  return PostgresAuditTrail.create({ connectionString: where.databaseUrl, schema: AUDIT_SCHEMA, ...(key === undefined ? {} : { key }), onWarning: warn });
}

/** The records of one support revocation: the attempt, kept before the grant changes, and its outcome; both say why. */
export class SupportRevocation {
  private readonly id = randomUUID();

  constructor(private readonly operator: string, private readonly reason: string, private readonly now: () => number = Date.now) {}

  private fields(grant: StoredGrant) {
    return {
      time: new Date(this.now()).toISOString(), requestId: this.id, serviceRequestId: this.id, operation: 'revokeProxy',
      actor: { issuer: SUPPORT_ISSUER, subject: this.operator }, patientId: grant.grantor, proxyGrantId: grant.id, delegation: 'support',
      reason: this.reason, sourceAddress: '',
    };
  }

  attempt(grant: StoredGrant): AttemptRecord {
    return { ...this.fields(grant), phase: 'attempt', outcome: 'allowed' };
  }

  outcome(grant: StoredGrant, outcome: OutcomeRecord['outcome'], status: number): OutcomeRecord {
    return { ...this.fields(grant), outcome, status };
  }
}

/**
 * The record of one support listing (operation listProxies): who looked at whose grants and why,
 * kept before anything is printed. The grants are the person's, so the record is theirs and their
 * access log shows it.
 */
export function supportListing(operator: string, reason: string | undefined, personId: string, now: () => number = Date.now): OutcomeRecord {
  const id = randomUUID();
  return {
    time: new Date(now()).toISOString(), requestId: id, serviceRequestId: id, operation: 'listProxies',
    actor: { issuer: SUPPORT_ISSUER, subject: operator }, patientId: personId, delegation: 'support',
    ...(reason === undefined ? {} : { reason }), sourceAddress: '', outcome: 'allowed', status: 200,
  };
}

const party = (p: GrantView['grantor']): string => (p.name === undefined ? p.identityNumber : `${p.identityNumber} (${p.name})`);

/** One line of a list: the person's role, the grant's status and who, what and when. */
export function grantLine(g: GrantView): string {
  const until = g.validTo === undefined ? 'until revoked' : `to ${g.validTo}`;
  const ended = g.endedBy === undefined ? '' : ` by ${g.endedBy}`;
  return `${g.id} ${g.role} ${g.status}${ended} grantor ${party(g.grantor)} grantee ${party(g.grantee)} `
    + `categories ${g.categories.join(',')} from ${g.validFrom} ${until} created ${g.created} changed ${g.changed}`;
}

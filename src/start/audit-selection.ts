/**
 * The audit store the settings pick (docs/operations.md#the-audit-store): the trail, keyed with the
 * chain key and its head signed into the log every AUDIT_HEAD_INTERVAL_MS, and the patient's access log
 * read from the same store. PostgreSQL's modules are imported only when DATABASE_URL names it.
 */
import { keptDemoChainKeys, type ChainKey } from '../adapters/audit-chain/chain-keys.js';
import { HeadSigner, type ChainHeadSource } from '../adapters/audit-chain/head-signer.js';
import { FILE_STORE, HEAD_FIELD, postgresStore } from '../adapters/audit-chain/signed-head.js';
import { FileAuditTrail } from '../adapters/audit-file/file-audit-trail.js';
import { FileAccessLog } from '../adapters/audit-query/file-access-log.js';
import { InstrumentedAuditTrail } from '../adapters/metrics/instrumented-audit-trail.js';
import type { AccessLogReader } from '../ports/access-log.port.js';
import type { AuditTrail } from '../ports/audit-trail.port.js';
import { isDemo, type Selection } from './adapter-selection.js';
import { UNKEYED_CHAIN_WARNING } from './audit-chain-settings.js';
import { auditFileOf } from './start-line.js';

const SCHEMA = 'audit';

/** The patient's access log is read from the store the audit trail writes to (docs/contract.md#the-patients-access-log). */
export async function selectAccessLogReader({ config, logger, life }: Selection): Promise<AccessLogReader> {
  const reader = config.databaseUrl === undefined
    ? new FileAccessLog(auditFileOf(config), (m) => logger.warn(m))
    : (await import('../adapters/audit-query/postgres-access-log.js')).PostgresAccessLog.create({ connectionString: config.databaseUrl });
  life.onClose(() => reader.close());
  return reader;
}

/**
 * AUDIT_CHAIN_KEY_FILE's signing key; in demo mode alone, one kept in DATA_DIR. Outside demo mode
 * without the setting, none: the chain is unkeyed and the start says so (UNKEYED_CHAIN_WARNING).
 */
async function chainKey({ config, life, logger }: Selection): Promise<ChainKey | undefined> {
  if (config.auditChainKeys !== undefined) return config.auditChainKeys.signing;
  // A key beside the trail must never stand in for a real one: only the demo makes one.
  if (!isDemo(config)) {
    logger.warn(UNKEYED_CHAIN_WARNING);
    return undefined;
  }
  const { keys, file } = await keptDemoChainKeys(config.dataDir);
  life.notices.push(`demo audit chain key: in ${file}`);
  return keys.signing;
}

/** Logs the trail's signed head at start, every AUDIT_HEAD_INTERVAL_MS and at the end (docs/operations.md#signed-heads). */
function signHeads({ config, clock, logger, metrics, life }: Selection, source: ChainHeadSource, key: ChainKey): void {
  metrics.auditHeadInterval.set(config.auditHeadIntervalMs / 1000);
  const signer = new HeadSigner({
    source, key, store: config.databaseUrl === undefined ? FILE_STORE : postgresStore(SCHEMA), intervalMs: config.auditHeadIntervalMs,
    now: () => new Date(clock.now()),
    onHead: (head) => {
      logger.info({ [HEAD_FIELD]: head }, 'audit chain head');
      metrics.auditHeadSigned.set(Date.parse(head.at) / 1000);
    },
    onFailure: (err) => {
      metrics.auditHeadFailures.inc();
      logger.warn({ err }, 'the audit chain head could not be signed; the next interval tries again');
    },
  });
  signer.start();
  life.onClose(() => signer.close());
}

export async function selectAuditTrail(selection: Selection): Promise<AuditTrail> {
  const { config, logger, metrics, life } = selection;
  const key = await chainKey(selection);
  const store = config.databaseUrl === undefined
    ? await FileAuditTrail.open(auditFileOf(config), { key, onWarning: (m) => logger.warn(m) })
    : (await import('../adapters/audit-postgres/postgres-audit-trail.js')).PostgresAuditTrail.create({
      connectionString: config.databaseUrl, schema: SCHEMA, key, onWarning: (m) => logger.warn(m),
    });
  // Migrates early when the database is up; when it is down the service starts anyway, not ready.
  void store.ping();
  life.onClose(() => store.close());
  // Registered after the store, so closed before it: the last head names the last record stored.
  // Without a key no head can be signed; PdasAuditHeadMissing then fires (docs/operations.md#pdasauditheadmissing).
  if (key !== undefined) signHeads(selection, store, key);
  const instrumented = new InstrumentedAuditTrail(store, metrics);
  if (!config.tracing) return instrumented;
  const { TracedAuditTrail } = await import('../tracing/traced-ports.js');
  return new TracedAuditTrail(instrumented);
}

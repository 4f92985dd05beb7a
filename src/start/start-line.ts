import path from 'node:path';
import { ConfigError, type Config } from './config.js';
import { demoMode } from './demo-mode.js';
import { shownUrl } from './shown-url.js';

/** The schema the service writes its audit trail to (src/adapters/audit-postgres/postgres-audit-trail.ts). */
const AUDIT_SCHEMA = 'audit';

/** Where the embedded audit trail is kept when there is no DATABASE_URL. */
export const auditFileOf = (config: Pick<Config, 'dataDir'>): string => path.join(config.dataDir, 'audit', 'audit-trail.jsonl');

export interface StartLine {
  message: string;
  fields: {
    ehr: string;
    registry?: string;
    auditStore: string;
    rateLimitStore: string;
    fhirApi: 'on' | 'off';
    releasePolicy: string;
    mode: 'demo' | 'production';
  };
}

function ehrOf(config: Config): string {
  if (config.ehrAdapter !== 'embedded') return `${config.ehrAdapter} at ${shownUrl(config.ehrBaseUrl ?? '')}`;
  return `embedded, ${config.ehrDataDir === undefined ? `generated demo data in ${path.join(config.dataDir, 'demo-ehr')}` : `documents in ${config.ehrDataDir}`}`;
}

/** Which release policy is in force: never silently none (issue 52 item 18). */
function releasePolicyOf(config: Config): string {
  const source = config.releasePolicySource;
  if (source === undefined) return config.releasePolicy === undefined ? 'none (nothing withheld)' : 'in force';
  if (source.kind === 'none') return 'none (RELEASE_POLICY_FILE=none: nothing withheld)';
  return source.kind === 'file' ? `file ${source.file}` : `the example ${source.file} (demo mode without RELEASE_POLICY_FILE)`;
}

/**
 * The one line at start that says what runs (docs/operations.md#log-format): the EHR and where, the
 * audit store, the rate-limit store, the FHIR API, the release policy, demo or production. Addresses
 * are shown without user, password or query, so no credential a setting carries reaches the log.
 */
export function startLine(config: Config): StartLine {
  const separate = config.delegationRegistry !== config.ehrAdapter || config.delegationRegistryUrl !== undefined;
  const fields: StartLine['fields'] = {
    ehr: ehrOf(config),
    ...(separate ? { registry: `${config.delegationRegistry}${config.delegationRegistryUrl === undefined ? '' : ` at ${shownUrl(config.delegationRegistryUrl)}`}` } : {}),
    auditStore: config.databaseUrl === undefined ? `file ${auditFileOf(config)}` : `PostgreSQL ${shownUrl(config.databaseUrl)} schema ${AUDIT_SCHEMA}`,
    rateLimitStore: config.redisUrl === undefined ? 'in-process' : `Redis ${shownUrl(config.redisUrl)}`,
    fhirApi: config.fhirApi ? 'on' : 'off',
    releasePolicy: releasePolicyOf(config),
    mode: demoMode(config, (message) => new ConfigError(message)) ? 'demo' : 'production',
  };
  const registry = fields.registry === undefined ? '' : `; delegation registry ${fields.registry}`;
  const limits = config.redisUrl === undefined ? fields.rateLimitStore : `in ${fields.rateLimitStore}`;
  const message = `running: EHR ${fields.ehr}${registry}; audit trail in ${fields.auditStore}; rate limits ${limits}; `
    + `FHIR API ${fields.fhirApi}; release policy ${fields.releasePolicy}; ${fields.mode === 'demo' ? 'DEMO mode' : 'production mode'}`;
  return { message, fields };
}

/**
 * What a newcomer's terminal shows once the service listens, beside the log stream: where the demo
 * credentials are and where to start. Demo mode only: a production start's notices (its own
 * authorization server's) are log lines, and it never says DEMO MODE (issue 52 item 12).
 */
export function demoBanner(config: Config, address: string, notices: readonly string[]): string | undefined {
  if (!demoMode(config, (message) => new ConfigError(message))) return undefined;
  return `\n  Patient Data Access Service (DEMO MODE) on ${address}\n  API docs: ${address}/docs\n  ${notices.join('\n  ')}\n`
    + '  README.md has a curl session that calls every operation.\n\n';
}

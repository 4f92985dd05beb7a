/**
 * Who accessed a patient's data, as a patient may ask under the law, and whether the trail is whole:
 *   npm run audit -- --patient <YYYYMMDDNNNC> --from <date> --to <date> [--json] [--schema <name>]
 *   npm run audit -- --verify [--from-checkpoint <id> | --checkpoint <file>] [--key-file <file>]… [--head <file>]… [--json] [--schema <name>]
 *   npm run audit -- --help
 * Reads the PostgreSQL trail when DATABASE_URL is set, else the embedded file in DATA_DIR, as the
 * service writes them. A date alone covers that whole day in Swedish local time. --verify checks the
 * keyed hash chain with the chain keys (--key-file, else AUDIT_CHAIN_KEY_FILE) and against signed
 * heads exported from the service's log (--head) (docs/operations.md#checking-the-chain). Exit code
 * 2 for bad arguments, 1 when the trail cannot be read, 3 when its chain is broken or a head given
 * cannot be trusted.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatAccessJson, formatAccessTable } from '../../adapters/audit-query/access-report.js';
import type { AuditQuery } from '../../adapters/audit-query/audit-query.js';
import { FILE_STORE, postgresStore } from '../../adapters/audit-chain/signed-head.js';
import type { Checkpoint } from '../../adapters/audit-query/chain-check.js';
import { formatChainJson, formatChainText, parseCheckpoint } from '../../adapters/audit-query/chain-report.js';
import { SQL_NAME } from '../../adapters/audit-postgres/sql-names.js';
import { FileAuditQuery } from '../../adapters/audit-query/file-audit-query.js';
import { PostgresAuditQuery } from '../../adapters/audit-query/postgres-audit-query.js';
import { parsePersonalIdentityNumber } from '../../domain/identity/personal-identity-number.js';
import { daysInMonth, wallClockToEpochMs, type WallClock } from '../../domain/time/local-time.js';
import { EvidenceError, loadEvidence } from './chain-evidence.js';
import { commandLogger, say } from './command-log.js';

const ZONE = 'Europe/Stockholm';
const USAGE = 'usage: npm run audit -- --patient <YYYYMMDDNNNC> --from <YYYY-MM-DD|ISO date-time> --to <YYYY-MM-DD|ISO date-time> [--json] [--schema <name>]\n'
  + '       npm run audit -- --verify [--from-checkpoint <id> | --checkpoint <file>] [--key-file <file>]... [--head <file>]... [--json] [--schema <name>]';
const CHAIN_BROKEN = 3;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})?)?$/;

class UsageError extends Error {}

/**
 * An instant from `YYYY-MM-DD` (the start of that day, or with `endOfDay` its last millisecond) or
 * an ISO date-time; one without an offset is Swedish local time, as the table shows it.
 */
function instant(raw: string, option: string, endOfDay: boolean): Date {
  const m = DATE_TIME.exec(raw);
  if (!m) throw new UsageError(`--${option} must be YYYY-MM-DD or an ISO date-time such as 2026-11-21T14:30:00`);
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [number, number, number, number, number, number];
  const ms = Number((m[7] ?? '').padEnd(3, '0'));
  const offset = /^([+-])(\d{2}):(\d{2})$/.exec(m[8] ?? '');
  if (year < 1900 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59
    || (offset && (Number(offset[2]) > 23 || Number(offset[3]) > 59))) {
    throw new UsageError(`--${option} is not a possible date or time`);
  }
  if (m[8] !== undefined) {
    const offsetMs = offset ? (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])) * 60_000 : 0;
    return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMs);
  }
  if (m[4] === undefined && endOfDay) {
    const next = new Date(Date.UTC(year, month - 1, day + 1));
    const nextMidnight: WallClock = { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), hour: 0, minute: 0, second: 0 };
    return new Date(wallClockToEpochMs(nextMidnight, ZONE) - 1);
  }
  return new Date(wallClockToEpochMs({ year, month, day, hour, minute, second }, ZONE) + ms);
}

interface Common {
  json: boolean;
  schema: string;
}
interface Verify {
  verify: true;
  checkpoint: Checkpoint | undefined;
  keyFiles: string[];
  headFiles: string[];
}
type Arguments = { help: true } | (Common & ({ verify: false; patientId: string; from: Date; to: Date } | Verify));

const OPTIONS = {
  patient: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, json: { type: 'boolean' }, schema: { type: 'string' },
  verify: { type: 'boolean' }, 'from-checkpoint': { type: 'string' }, checkpoint: { type: 'string' }, help: { type: 'boolean', short: 'h' },
  'key-file': { type: 'string', multiple: true }, head: { type: 'string', multiple: true },
} as const;

/** --from-checkpoint <id> (that record trusted as stored) or --checkpoint <file> (its hash must still match). */
function checkpointOf(fromId: string | undefined, file: string | undefined): Checkpoint | undefined {
  if (fromId !== undefined && file !== undefined) throw new UsageError('--from-checkpoint and --checkpoint name the same thing: give one');
  if (fromId !== undefined) {
    if (!/^[1-9]\d{0,15}$/.test(fromId)) throw new UsageError('--from-checkpoint must be a record id (a line number for the file)');
    return { id: Number(fromId) };
  }
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`--checkpoint ${file} cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  }
  const checkpoint = parseCheckpoint(text);
  if (checkpoint === undefined) throw new UsageError(`--checkpoint ${file} holds no {"id": …, "hash": "…"} (nor the JSON of an earlier --verify --json)`);
  return checkpoint;
}

function parseArguments(argv: string[]): Arguments {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: OPTIONS }));
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  if (values.help === true) return { help: true };
  const schema = values.schema ?? 'audit';
  if (!SQL_NAME.test(schema)) throw new UsageError('--schema must be a lower-case SQL name such as audit');
  const common = { json: values.json ?? false, schema };
  if (values.verify === true) {
    if (values.patient !== undefined || values.from !== undefined || values.to !== undefined) throw new UsageError('--verify checks the whole chain: it takes no --patient, --from or --to');
    return {
      ...common, verify: true, checkpoint: checkpointOf(values['from-checkpoint'], values.checkpoint), keyFiles: values['key-file'] ?? [], headFiles: values.head ?? [],
    };
  }
  if ([values['from-checkpoint'], values.checkpoint, values['key-file'], values.head].some((v) => v !== undefined)) {
    throw new UsageError('--from-checkpoint, --checkpoint, --key-file and --head go with --verify');
  }
  if (values.patient === undefined || values.from === undefined || values.to === undefined) {
    throw new UsageError('--patient, --from and --to are required');
  }
  const patientId = parsePersonalIdentityNumber(values.patient);
  if (patientId === undefined) throw new UsageError('--patient must be a valid Swedish personal identity or coordination number (YYYYMMDDNNNC)');
  const from = instant(values.from, 'from', false);
  const to = instant(values.to, 'to', true);
  if (from.getTime() > to.getTime()) throw new UsageError('--from must not be after --to');
  return { ...common, verify: false, patientId, from, to };
}

/** The chain checked with the keys and heads given; the exit code. */
async function verify(query: AuditQuery, args: Common & Verify, source: string, store: string, dataDir: string | undefined): Promise<number> {
  let evidence;
  try {
    evidence = loadEvidence({ keyFiles: args.keyFiles, headFiles: args.headFiles, store, dataDir });
  } catch (err) {
    if (err instanceof EvidenceError) throw new UsageError(err.message);
    throw err;
  }
  const check = await query.chain({ from: args.checkpoint, keys: evidence.keys, heads: evidence.heads });
  const heading = { source, unit: dataDir === undefined ? 'record' as const : 'line' as const, from: args.checkpoint, evidence };
  process.stdout.write(args.json ? formatChainJson(check, heading) : formatChainText(check, heading));
  return check.broken === undefined && evidence.headProblems.length === 0 ? 0 : CHAIN_BROKEN;
}

/** Who accessed the patient's data (the table or JSON); the exit code. */
async function report(query: AuditQuery, args: Common & { patientId: string; from: Date; to: Date }, source: string): Promise<number> {
  const records = await query.accessesTo(args.patientId, args.from, args.to);
  const heading = { patientId: args.patientId, from: args.from, to: args.to, zone: ZONE, source };
  process.stdout.write(args.json ? formatAccessJson(records, heading) : formatAccessTable(records, heading));
  return 0;
}

const setting = (name: string): string | undefined => {
  const v = process.env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
};

const log = commandLogger('audit');

async function main(): Promise<number> {
  let args: Arguments;
  try {
    args = parseArguments(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    log.error(`${err.message}\n${USAGE}`);
    return 2;
  }
  if ('help' in args) {
    say(USAGE);
    return 0;
  }
  const databaseUrl = setting('DATABASE_URL');
  const dataDir = path.resolve(setting('DATA_DIR') ?? './.data');
  const file = path.join(dataDir, 'audit', 'audit-trail.jsonl');
  const query: AuditQuery = databaseUrl !== undefined
    ? PostgresAuditQuery.create({ connectionString: databaseUrl, schema: args.schema })
    : new FileAuditQuery(file, (msg) => log.warn(msg));
  const source = databaseUrl !== undefined ? `PostgreSQL schema ${args.schema}` : `file ${file}`;
  try {
    if (!args.verify) return await report(query, args, source);
    return await verify(query, args, source, databaseUrl !== undefined ? postgresStore(args.schema) : FILE_STORE, databaseUrl !== undefined ? undefined : dataDir);
  } catch (err) {
    if (err instanceof UsageError) {
      log.error(`${err.message}\n${USAGE}`);
      return 2;
    }
    log.error(`cannot read the audit trail (${source}): ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await query.close();
  }
}

process.exitCode = await main();

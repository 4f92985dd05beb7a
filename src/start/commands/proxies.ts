/**
 * A region's support staff and a person's proxy grants (docs/contract.md §11 "Support"):
 *   npm run proxies -- list <identity number> [--reason "<text>"] [--operator <name>] [--json]
 *   npm run proxies -- revoke <grant id> --reason "<text>" [--operator <name>]
 *   npm run proxies -- --help
 * Reads the grants where the service keeps them: PostgreSQL when DATABASE_URL is set, else DATA_DIR.
 * `list` prints the grants the person gave and received, one line each (or JSON), and no one else's,
 * after a record of the look (listProxies, the operator and the reason) is stored in the audit trail:
 * a support member reading whom a person shares their record with is itself an access to be shown.
 * `revoke` ends a pending or active grant as `support`: the attempt, naming the operator ($USER or
 * --operator) and the reason, is stored in the audit trail the service writes to before the grant
 * changes, and its outcome after. With the file stores, run it on the service's machine with the
 * service stopped: the embedded audit file has one writer. Either command does nothing (prints no grant)
 * when its record cannot be stored. Exit code 2 for bad arguments, 1 when it
 * could not be done, 0 when done.
 */
import { parseArgs } from 'node:util';
import { DomainError } from '../../domain/errors.js';
import { parsePersonalIdentityNumber } from '../../domain/identity/personal-identity-number.js';
import { plainView } from '../../domain/proxies/grant.js';
import { hidesText } from '../../domain/proxies/hidden-text.js';
import type { AuditTrail } from '../../ports/audit-trail.port.js';
import type { ProxyGrants } from '../../domain/proxies/proxy-grants.js';
import type { StoredGrant } from '../../ports/proxy-grants.port.js';
import { commandLogger, say } from './command-log.js';
import { grantLine, openGrants, openTrail, storeName, SupportRevocation, supportListing, whereOf } from './proxy-support.js';

const USAGE = 'usage: npm run proxies -- list <YYYYMMDDNNNC> [--reason "<why>"] [--operator <name>] [--json]\n'
  + '       npm run proxies -- revoke <grant id> --reason "<why>" [--operator <name>]';
/** Long enough for a ticket number and a sentence; an audit record is no place for a letter. */
const MAX_REASON = 500;
const GRANT_ID = /^[0-9a-f]{32}$/;

class UsageError extends Error {}

type Arguments =
  | { help: true }
  | { help: false; command: 'list'; personId: string; json: boolean; reason?: string; operator: string }
  | { help: false; command: 'revoke'; id: string; reason: string; operator: string };

const OPTIONS = { json: { type: 'boolean' }, reason: { type: 'string' }, operator: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;

function parseArguments(argv: string[], env: NodeJS.ProcessEnv): Arguments {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, strict: true, allowPositionals: true, options: OPTIONS });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { help: true };
  const [command, subject, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`unexpected ${rest.join(' ')}`);
  // Both commands are audited with who ran them and why.
  // A revoke needs a reason; a listing keeps one when given (the contract's form is `list <number>`), and is audited either way.
  const why = (what: string, needed: boolean): { reason?: string; operator: string } => {
    const reason = values.reason?.trim() ?? '';
    if (reason === '' && values.reason !== undefined) throw new UsageError(`--reason must say why: it is kept in the audit trail with the ${what}`);
    if (reason === '' && needed) throw new UsageError(`${command ?? ''} needs --reason "<why>": it is kept in the audit trail with the ${what}`);
    // eslint-disable-next-line no-control-regex
    if (reason.length > MAX_REASON || /[\u0000-\u001f\u007f]/.test(reason)) throw new UsageError(`--reason must be one line of at most ${MAX_REASON} characters`);
    const operator = (values.operator ?? env.USER ?? '').trim();
    if (operator === '') throw new UsageError('say who you are with --operator <name> (USER is not set)');
    // Both reach the grantor's access log, where a direction override would reorder what they read, and an invisible character hide text.
    if (hidesText(reason)) throw new UsageError('--reason must be plain text: it holds a character that shows nothing or turns the text\'s direction');
    if (hidesText(operator)) throw new UsageError('--operator must be plain text: it holds a character that shows nothing or turns the text\'s direction');
    return { ...(reason === '' ? {} : { reason }), operator };
  };
  if (command === 'list') {
    const personId = parsePersonalIdentityNumber(subject ?? '');
    if (personId === undefined) throw new UsageError('list takes a valid Swedish personal identity or coordination number (YYYYMMDDNNNC)');
    return { help: false, command, personId, json: values.json === true, ...why('listing', false) };
  }
  if (command === 'revoke') {
    if (values.json !== undefined) throw new UsageError('--json goes with list');
    if (subject === undefined || !GRANT_ID.test(subject)) throw new UsageError('revoke takes a grant id: 32 hexadecimal characters, as list prints it');
    return { help: false, command, id: subject, reason: why('revocation', true).reason ?? '', operator: why('revocation', true).operator };
  }
  throw new UsageError(command === undefined ? 'say list or revoke' : `unknown command ${command}: say list or revoke`);
}

const log = commandLogger('proxies');

/** Ends the grant as support, the attempt audited before and the outcome after; the exit code. */
async function revoke(grants: ProxyGrants, trail: AuditTrail,
  args: { id: string; reason: string; operator: string }): Promise<number> {
  const records = new SupportRevocation(args.operator, args.reason);
  let attempted: StoredGrant | undefined;
  let seen: StoredGrant | undefined;
  try {
    const view = await grants.revokeAsSupport(args.id, async (grant, changes) => {
      seen = grant;
      if (!changes) return;
      await trail.append(records.attempt(grant));
      attempted = grant;
    });
    if (view === undefined) {
      log.error(`no grant has id ${args.id}: list a person's grants with npm run proxies -- list <identity number>`);
      return 1;
    }
    if (attempted === undefined) {
      say(`grant ${args.id} was already revoked (by ${view.endedBy ?? 'someone'}); nothing changed`);
      return 0;
    }
    await trail.append(records.outcome(attempted, 'allowed', 200));
    say(`grant ${args.id} revoked as support: ${grantLine(view)}`);
    return 0;
  } catch (err) {
    if (err instanceof DomainError && seen !== undefined) {
      await trail.append(records.outcome(seen, 'denied', 409)).catch(() => undefined);
      log.error(`grant ${args.id} was not revoked: ${err.message}`);
      return 1;
    }
    if (attempted !== undefined) await trail.append(records.outcome(attempted, 'failed', 503)).catch(() => undefined);
    log.error(`grant ${args.id} was not revoked: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

/** Prints the person's grants once the listing is on record; nothing when it cannot be stored. */
async function list(grants: ProxyGrants, trail: AuditTrail, args: { personId: string; json: boolean; reason?: string; operator: string }): Promise<number> {
  const views = await grants.list(args.personId);
  try {
    await trail.append(supportListing(args.operator, args.reason, args.personId));
  } catch (err) {
    log.error(`cannot store the audit record, so nothing was listed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  if (args.json) say(JSON.stringify(views.map(plainView), null, 2));
  else if (views.length === 0) say('no grants given or received');
  else for (const v of views) say(grantLine(v));
  return 0;
}

async function main(): Promise<number> {
  let args: Arguments;
  const fail = (m: string): Error => new UsageError(m);
  let where;
  try {
    args = parseArguments(process.argv.slice(2), process.env);
    where = whereOf(process.env, fail);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    log.error(`${err.message}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    say(USAGE);
    return 0;
  }
  let opened;
  try {
    opened = await openGrants(where);
  } catch (err) {
    log.error(`cannot open the proxy grants (${storeName(where)}): ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  const { store, grants } = opened;
  const undone = args.command === 'list' ? 'nothing was listed' : 'nothing was revoked';
  try {
    let trail: AuditTrail;
    try {
      trail = await openTrail(process.env, where, fail, (m) => log.warn(m));
    } catch (err) {
      log.error(`cannot open the audit trail, so ${undone}: ${err instanceof Error ? err.message : String(err)}`);
      return 1;
    }
    try {
      return args.command === 'list' ? await list(grants, trail, args) : await revoke(grants, trail, args);
    } finally {
      await trail.close();
    }
  } catch (err) {
    log.error(`cannot read the proxy grants (${storeName(where)}): ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await store.close();
  }
}

process.exitCode = await main();

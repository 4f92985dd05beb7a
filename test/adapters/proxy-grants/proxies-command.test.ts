/**
 * `npm run proxies` (src/start/commands/proxies.ts), docs/contract.md §11 "Support": list prints the
 * grants a person gave and received and no one else's, once the look (operator, reason) is in the
 * audit trail, and prints nothing when it cannot be; revoke ends one as support, its attempt with
 * the operator and the reason in the audit trail before the grant changes; bad arguments exit 2.
 */
import { randomInt } from 'node:crypto';
import { mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileGrantStore } from '../../../src/adapters/proxy-grants/file-grant-store.js';
import { PostgresGrantStore } from '../../../src/adapters/proxy-grants/postgres-grant-store.js';
import type { ProxyGrantStore, StoredGrant } from '../../../src/ports/proxy-grants.port.js';
import { adminPool, databaseAvailable, databaseUrl } from '../../support/database.js';
import { inTurns, runScript, RUNS_COMMANDS } from '../../support/run-script.js';
import { ANTON, GOSTA, grantOf, MARTA, TOLVAN } from './grant-stores.js';

const available = await databaseAvailable();

const DAY = 86_400_000;
const REASON = 'Ärende 4711: the grantor asked by phone, identity checked';

/** Grants as the service keeps them, made now: Tolvan → Märta accepted, Gösta → Tolvan pending, Anton → Gösta (not Tolvan's), Märta → Anton declined. */
async function seed(store: ProxyGrantStore, people: { tolvan: string; marta: string; gosta: string; anton: string }) {
  const now = Date.now();
  const at = (d: number): Partial<StoredGrant> => ({ createdMs: now - d * 60_000, changedMs: now - d * 60_000, validFromMs: now - d * 60_000 });
  const given = grantOf(people.tolvan, people.marta, { ...at(30), grantorName: 'Tolvan Tolvansson', validToMs: now + 30 * DAY });
  const received = grantOf(people.gosta, people.tolvan, at(20));
  const others = grantOf(people.anton, people.gosta, at(10));
  const declined = grantOf(people.marta, people.anton, at(5));
  for (const g of [given, received, others, declined]) await store.create(g, () => undefined);
  await store.change(given.id, ['pending'], { state: 'active', changedMs: now - 25 * 60_000, granteeName: 'Märta Ström' },
    { grantId: given.id, kind: 'accepted', atMs: now - 25 * 60_000, by: 'grantee', grantor: given.grantor, grantee: given.grantee });
  await store.change(declined.id, ['pending'], { state: 'declined', changedMs: now - 60_000, endedBy: 'grantee' },
    { grantId: declined.id, kind: 'declined', atMs: now - 60_000, by: 'grantee', grantor: declined.grantor, grantee: declined.grantee });
  return { given, received, others, declined };
}

interface AuditLine { operation: string; phase?: string; outcome: string; status?: number; actor: { issuer: string; subject: string }; patientId: string; proxyGrantId: string; delegation: string; reason: string }

describe('npm run proxies, over DATA_DIR', RUNS_COMMANDS, () => {
  let dir: string;
  let grants: Awaited<ReturnType<typeof seed>>;
  let store: FileGrantStore;
  const proxies = (args: string[], env: Record<string, string> = {}) => runScript('proxies.ts', args, { DATA_DIR: dir, USER: 'anna.support', ...env });
  const auditLines = async (): Promise<AuditLine[]> => (await readFile(path.join(dir, 'audit', 'audit-trail.jsonl'), 'utf8').catch(() => ''))
    .split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as AuditLine);

  /** Runs `body` with a file where the audit folder should be, the folder's records kept aside and put back. */
  const withoutAuditFolder = async (body: () => Promise<void>): Promise<void> => {
    const folder = path.join(dir, 'audit');
    const kept = await stat(folder).then(() => true, () => false);
    if (kept) await rename(folder, `${folder}.kept`);
    await writeFile(folder, 'not a folder');
    try {
      await body();
    } finally {
      await rm(folder);
      if (kept) await rename(`${folder}.kept`, folder);
    }
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pdas-proxies-cmd-'));
    store = await FileGrantStore.open(dir);
    grants = await seed(store, { tolvan: TOLVAN, marta: MARTA, gosta: GOSTA, anton: ANTON });
  });
  afterAll(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('list prints the grants the person gave and received, one line each, and never another person\'s', async () => {
    const run = await proxies(['list', TOLVAN, '--reason', REASON]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^${grants.given.id} grantor active grantor ${TOLVAN} \\(Tolvan Tolvansson\\) grantee ${MARTA} \\(Märta Ström\\) categories LabResult,JournalNote from \\d{14} to \\d{14} created \\d{14} changed \\d{14}$`));
    expect(lines[1]).toMatch(new RegExp(`^${grants.received.id} grantee pending grantor ${GOSTA} grantee ${TOLVAN} `));
    expect(run.stdout).not.toContain(grants.others.id);
    expect(run.stdout).not.toContain(ANTON);
    const json = await proxies(['list', TOLVAN, '--json', '--reason', REASON]);
    expect(json.code).toBe(0);
    const views = JSON.parse(json.stdout) as { id: string; role: string; status: string }[];
    expect(views.map((v) => [v.id, v.role, v.status])).toEqual([[grants.given.id, 'grantor', 'active'], [grants.received.id, 'grantee', 'pending']]);
    const none = await proxies(['list', freshPerson(), '--reason', REASON]);
    expect([none.code, none.stdout]).toEqual([0, 'no grants given or received\n']);
  });

  it('list records each look in the audit trail as the person\'s, with the operator and the reason', async () => {
    const before = (await auditLines()).length;
    const run = await proxies(['list', TOLVAN, '--reason', 'Ärende 4712: who may read my record?', '--operator', 'bo.support']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    const lines = (await auditLines()).slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      operation: 'listProxies', actor: { issuer: 'urn:pdas:support', subject: 'bo.support' }, patientId: TOLVAN,
      delegation: 'support', reason: 'Ärende 4712: who may read my record?', outcome: 'allowed', status: 200,
    });
    expect(lines[0]).not.toHaveProperty('phase');
    // The contract's own form, `list <number>`, is audited too: with the operator, without a reason to keep.
    const plain = await proxies(['list', TOLVAN]);
    expect([plain.code, plain.stderr]).toEqual([0, '']);
    const [record] = (await auditLines()).slice(before + 1);
    expect(record).toMatchObject({ operation: 'listProxies', actor: { issuer: 'urn:pdas:support', subject: 'anna.support' }, patientId: TOLVAN, delegation: 'support' });
    expect(record).not.toHaveProperty('reason');
  });

  it('list prints nothing and exits 1 when the audit trail cannot be written', async () => {
    const before = (await auditLines()).length;
    await withoutAuditFolder(async () => {
      const run = await proxies(['list', TOLVAN, '--reason', REASON]);
      expect([run.code, run.stdout]).toEqual([1, '']);
      expect(run.stderr).toContain('nothing was listed');
      expect(run.stderr).not.toContain(MARTA);
    });
    expect(await auditLines()).toHaveLength(before);
  });

  it('revoke refuses to act when the audit trail cannot be written: nothing changes', async () => {
    await withoutAuditFolder(async () => {
      const run = await proxies(['revoke', grants.given.id, '--reason', REASON]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('cannot open the audit trail, so nothing was revoked');
      expect(await store.byId(grants.given.id)).toMatchObject({ state: 'active' });
    });
  });

  it('revoke ends an active grant as support, the attempt with the operator and the reason audited before, the outcome after', async () => {
    const before = (await auditLines()).length;
    const run = await proxies(['revoke', grants.given.id, '--reason', REASON]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(new RegExp(`^grant ${grants.given.id} revoked as support: ${grants.given.id} grantor revoked by support `));
    expect(await store.byId(grants.given.id)).toMatchObject({ state: 'revoked', endedBy: 'support' });
    expect((await store.events(0, 100)).at(-1)).toMatchObject({ grantId: grants.given.id, kind: 'revoked', by: 'support' });
    const common = {
      operation: 'revokeProxy', actor: { issuer: 'urn:pdas:support', subject: 'anna.support' }, patientId: TOLVAN,
      proxyGrantId: grants.given.id, delegation: 'support', reason: REASON,
    };
    const lines = (await auditLines()).slice(before);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ ...common, phase: 'attempt', outcome: 'allowed' });
    expect(lines[1]).toMatchObject({ ...common, outcome: 'allowed', status: 200 });
  });

  it('revoke again changes nothing and audits nothing more; --operator names someone else', async () => {
    const before = (await auditLines()).length;
    const run = await proxies(['revoke', grants.given.id, '--reason', REASON, '--operator', 'bo.support']);
    expect([run.code, run.stdout]).toEqual([0, `grant ${grants.given.id} was already revoked (by support); nothing changed\n`]);
    expect(await auditLines()).toHaveLength(before);
    const pending = await proxies(['revoke', grants.received.id, '--reason', 'asked by the grantee', '--operator', 'bo.support']);
    expect(pending.code).toBe(0);
    expect((await auditLines()).at(-1)).toMatchObject({ actor: { subject: 'bo.support' }, patientId: GOSTA, proxyGrantId: grants.received.id, reason: 'asked by the grantee' });
  });

  it('revoke of an ended grant is refused (exit 1) and audited as refused; of an unknown id, exit 1', async () => {
    const ended = await proxies(['revoke', grants.declined.id, '--reason', REASON]);
    expect(ended.code).toBe(1);
    // The id as written, though the command's stderr is scrubbed: a grant's id never holds what the scrubber removes (src/domain/proxies/grant-id.ts).
    expect(ended.stderr).toContain(`proxies: grant ${grants.declined.id} was not revoked: This grant has already ended`);
    expect(await store.byId(grants.declined.id)).toMatchObject({ state: 'declined', endedBy: 'grantee' });
    expect((await auditLines()).at(-1)).toMatchObject({ proxyGrantId: grants.declined.id, outcome: 'denied', status: 409, reason: REASON });
    const unknown = await proxies(['revoke', 'a'.repeat(32), '--reason', REASON]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`no grant has id ${'a'.repeat(32)}`);
  });

  it('bad arguments exit 2 with the usage; --help exits 0', async () => {
    const cases: [string[], string][] = [
      [[], 'say list or revoke'],
      [['show', TOLVAN], 'unknown command show'],
      [['list'], 'valid Swedish personal identity'],
      [['list', '191212121213'], 'valid Swedish personal identity'],
      [['list', TOLVAN, MARTA, '--reason', 'x'], 'unexpected'],
      [['list', TOLVAN, '--reason', ' '], '--reason must say why'],
      [['list', TOLVAN, '--reason', 'two\nlines'], 'one line of at most 500'],
      [['revoke', grants.others.id], 'revoke needs --reason'],
      [['revoke', grants.others.id, '--reason', '  '], '--reason must say why'],
      [['revoke', grants.others.id, '--reason', 'two\nlines'], 'one line of at most 500'],
      [['revoke', grants.others.id, '--reason', 'x'.repeat(501)], 'one line of at most 500'],
      // Re-review helper-165, F8: the grantor's access log shows the reason and the operator, where a direction
      // override reorders what they read and an invisible character hides text. Failed before: both were kept.
      [['revoke', grants.others.id, '--reason', 'asked by \u202etnarg eht\u202c'], '--reason must be plain text'],
      [['list', TOLVAN, '--reason', 'ticket\u200b4712'], '--reason must be plain text'],
      [['list', TOLVAN, '--reason', 'x', '--operator', 'bo\u2066.support'], '--operator must be plain text'],
      [['revoke', 'not-an-id', '--reason', 'x'], 'revoke takes a grant id'],
      [['revoke', grants.others.id, '--reason', 'x', '--json'], '--json goes with list'],
      [['list', TOLVAN, '--reason', 'x', '--colour'], 'Unknown option'],
    ];
    // A few at a time, not a dozen at once: each is a process of its own (one after another, this test
    // alone took 90 s of a loaded whole run). None may change the store, which the end checks.
    const runs = await inTurns(cases, 4, ([args]) => proxies(args));
    cases.forEach(([args, says], i) => {
      expect(runs[i]?.code, args.join(' ')).toBe(2);
      expect(runs[i]?.stderr).toContain(says);
      expect(runs[i]?.stderr).toContain('usage: npm run proxies');
    });
    const [noUser, listNoUser] = await Promise.all([
      proxies(['revoke', grants.others.id, '--reason', 'x'], { USER: '' }), proxies(['list', TOLVAN, '--reason', 'x'], { USER: '' }),
    ]);
    expect([noUser.code, noUser.stderr]).toEqual([2, expect.stringContaining('--operator')]);
    expect([listNoUser.code, listNoUser.stdout, listNoUser.stderr]).toEqual([2, '', expect.stringContaining('--operator')]);
    expect(await store.byId(grants.others.id)).toMatchObject({ state: 'pending' });
    const help = await proxies(['--help']);
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('npm run proxies -- revoke <grant id> --reason')]);
    expect(help.stdout).toContain('npm run proxies -- list <YYYYMMDDNNNC> [--reason');
  });
});

/** A valid synthetic identity number no other run uses (Luhn over the last ten digits). */
function freshPerson(): string {
  const body = `19${randomInt(30, 99)}0${randomInt(1, 9)}${String(randomInt(10, 28))}${String(randomInt(100, 999))}`;
  const digits = body.slice(2).split('').map(Number);
  const sum = digits.reduce((s, d, i) => {
    const x = i % 2 === 0 ? d * 2 : d;
    return s + (x > 9 ? x - 9 : x);
  }, 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

describe.skipIf(!available)('npm run proxies, over PostgreSQL (the service\'s own schemas)', RUNS_COMMANDS, () => {
  const people = { tolvan: freshPerson(), marta: freshPerson(), gosta: freshPerson(), anton: freshPerson() };
  let store: PostgresGrantStore;
  let grants: Awaited<ReturnType<typeof seed>>;
  const proxies = (args: string[]) => runScript('proxies.ts', args, { DATABASE_URL: databaseUrl(), USER: 'anna.support' });

  beforeAll(async () => {
    store = await PostgresGrantStore.open({ connectionString: databaseUrl() });
    grants = await seed(store, people);
  });
  afterAll(async () => {
    await store.close();
  });

  it('lists the person\'s grants, and revokes one as support with its audit records in the PostgreSQL trail', async () => {
    const list = await proxies(['list', people.tolvan, '--reason', REASON]);
    expect([list.code, list.stderr]).toEqual([0, '']);
    expect(list.stdout.trimEnd().split('\n').map((l) => l.split(' ').slice(0, 3).join(' '))).toEqual([
      `${grants.given.id} grantor active`, `${grants.received.id} grantee pending`]);
    const run = await proxies(['revoke', grants.given.id, '--reason', REASON]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(await store.byId(grants.given.id)).toMatchObject({ state: 'revoked', endedBy: 'support' });
    const admin = adminPool();
    try {
      const { rows } = await admin.query(`SELECT operation, actor_issuer, actor_subject, delegation, outcome, status FROM audit.access_log
        WHERE patient_id = $1 ORDER BY id`, [people.tolvan]);
      expect(rows).toEqual([
        { operation: 'listProxies', actor_issuer: 'urn:pdas:support', actor_subject: 'anna.support', delegation: 'support', outcome: 'allowed', status: 200 },
        { operation: 'revokeProxy', actor_issuer: 'urn:pdas:support', actor_subject: 'anna.support', delegation: 'support', outcome: 'allowed', status: null },
        { operation: 'revokeProxy', actor_issuer: 'urn:pdas:support', actor_subject: 'anna.support', delegation: 'support', outcome: 'allowed', status: 200 },
      ]);
    } finally {
      await admin.end();
    }
  });
});

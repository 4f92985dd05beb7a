/**
 * The file trail keeps a record's proxy grant and support's reason (issue 53, docs/proxies.md#audited-and-shown)
 * in the chain as it keeps every field: lines written before them still verify, a line with them
 * verifies, a changed one breaks the chain, and `npm run audit` and the access log read them back.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkFileChain } from '../../../src/adapters/audit-file/chain-check.js';
import { FileAuditTrail } from '../../../src/adapters/audit-file/file-audit-trail.js';
import { formatAccessTable } from '../../../src/adapters/audit-query/access-report.js';
import { FileAccessLog } from '../../../src/adapters/audit-query/file-access-log.js';
import { FileAuditQuery } from '../../../src/adapters/audit-query/file-audit-query.js';
import type { OutcomeRecord } from '../../../src/ports/audit-trail.port.js';
import { KEYS, k1 } from '../audit-query/keyed-trails.js';

const GRANTOR = '191212121212';
const GRANT = '3f2a9c0d5b7e41a8b6c2d9e0f1a2b3c4';
const REASON = 'Anhörig ringde: "avsluta delningen" — ärende 4711';

/**
 * Two lines as the service wrote them before issue 53 (one unkeyed, one under k1 of
 * test/adapters/audit-query/keyed-trails.ts), kept as written: their hashes must never change.
 */
const OLDER_LINES = [
  '{"time":"2026-11-21T09:00:01.000Z","requestId":"r-1","serviceRequestId":"r-1","operation":"getJournalNotes","actor":{"issuer":"https://idp.example.test","subject":"tolvan","personId":"191212121212"},"clientId":"patient-app","patientId":"191212121212","delegation":"self","sourceAddress":"127.0.0.1","outcome":"allowed","status":200,"prev":"0000000000000000000000000000000000000000000000000000000000000000","hash":"%H1%"}',
  '{"time":"2026-11-21T09:00:02.000Z","requestId":"r-2","serviceRequestId":"r-2","operation":"getMedications","actor":{"issuer":"https://idp.example.test","subject":"tolvan","personId":"191212121212"},"clientId":"patient-app","patientId":"191212121212","delegation":"self","sourceAddress":"127.0.0.1","outcome":"allowed","status":200,"withheld":1,"key":"k1","prev":"%H1%","hash":"%H2%"}',
];
const H1 = '1080c143be248c68f9ace5410e3fca572a207540e676164ff3f69a0ed53120c5';
const H2 = '586566753fd6f36a2651014a8d4906cbb47f00aa61ca4af90aba72edc7a31046';

const grantRecord = (n: number, extra: Partial<OutcomeRecord> = {}): OutcomeRecord => ({
  time: `2026-11-21T09:00:0${n}.000Z`, requestId: `r-${n}`, serviceRequestId: `r-${n}`, operation: 'grantProxy',
  actor: { issuer: 'https://idp.example.test', subject: 'tolvan', personId: GRANTOR }, clientId: 'patient-app',
  patientId: GRANTOR, delegation: 'self', proxyGrantId: GRANT, sourceAddress: '127.0.0.1', outcome: 'allowed', status: 200, ...extra,
});
const supportRevoke = (n: number): OutcomeRecord => ({
  time: `2026-11-21T09:00:0${n}.000Z`, requestId: `r-${n}`, serviceRequestId: `r-${n}`, operation: 'revokeProxy',
  actor: { issuer: 'urn:pdas:support', subject: 'support' }, patientId: GRANTOR, delegation: 'support', proxyGrantId: GRANT, reason: REASON,
  sourceAddress: '', outcome: 'allowed', status: 200,
});

describe('file audit trail: proxy grants and reasons in the chain (issue 53)', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'audit-grants-'));
    file = path.join(dir, 'audit.jsonl');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('issue 53: lines from before still verify, lines with a grant and a reason verify, and a change of either breaks the chain', async () => {
    await writeFile(file, `${OLDER_LINES.join('\n').replaceAll('%H1%', H1).replaceAll('%H2%', H2)}\n`);
    expect(await checkFileChain(file, { keys: KEYS.byId })).toMatchObject({ broken: undefined, checked: 2 });
    const trail = await FileAuditTrail.open(file, { key: k1 });
    await trail.append(grantRecord(3));
    await trail.append(supportRevoke(4));
    await trail.close();
    expect(await checkFileChain(file, { keys: KEYS.byId })).toMatchObject({ broken: undefined, checked: 4 });

    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    for (const [n, edit] of [[3, (t: string) => t.replace(GRANT, 'ffff')], [4, (t: string) => t.replace('ärende 4711', 'ärende 4712')]] as const) {
      const edited = lines.map((l, i) => (i === n - 1 ? edit(l) : l));
      await writeFile(file, `${edited.join('\n')}\n`);
      expect((await checkFileChain(file, { keys: KEYS.byId })).broken?.id).toBe(n);
    }
  });

  it('issue 53: npm run audit and the access log read the grant and the reason back', async () => {
    const trail = await FileAuditTrail.open(file, { key: k1 });
    await trail.append(grantRecord(3));
    await trail.append(supportRevoke(4));
    await trail.append(grantRecord(5, { operation: 'getJournalNotes', proxyGrantId: undefined }));
    await trail.close();
    const records = await new FileAuditQuery(file, () => undefined).accessesTo(GRANTOR, new Date('2026-11-21T09:00:00Z'), new Date('2026-11-21T09:01:00Z'));
    expect(records.map((r) => [r.operation, r.proxyGrantId, r.reason])).toEqual([
      ['grantProxy', GRANT, undefined], ['revokeProxy', GRANT, REASON], ['getJournalNotes', undefined, undefined]]);
    const table = formatAccessTable(records, { patientId: GRANTOR, from: new Date('2026-11-21T09:00:00Z'), to: new Date('2026-11-21T09:01:00Z'), zone: 'Europe/Stockholm', source: 'test' });
    expect(table).toMatch(/Caller request id +Proxy grant +Reason\n/);
    expect(table).toContain(`${GRANT}  ${REASON}\n`);

    const page = await new FileAccessLog(file).page({ patientId: GRANTOR, limit: 10 });
    expect(page.map((p) => [p.access.operation, p.access.proxyGrantId, p.access.reason])).toEqual([
      ['grantProxy', GRANT, undefined], ['revokeProxy', GRANT, REASON], ['getJournalNotes', undefined, undefined]]);
  });

  it('issue 53: refuses a reason that is not printable text of at most 500 characters, alone', async () => {
    const trail = await FileAuditTrail.open(file);
    await expect(trail.append({ ...supportRevoke(4), reason: 'forged\n{"line":1}' })).rejects.toThrow(/reason cannot be stored/);
    await expect(trail.append({ ...supportRevoke(4), reason: 'x'.repeat(501) })).rejects.toThrow(/reason cannot be stored/);
    await trail.append(supportRevoke(4));
    await trail.close();
    expect((await readFile(file, 'utf8')).trimEnd().split('\n')).toHaveLength(1);
  });
});

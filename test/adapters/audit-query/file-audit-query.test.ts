import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileAuditTrail } from '../../../src/adapters/audit-file/file-audit-trail.js';
import { AuditTrailMissingError } from '../../../src/adapters/audit-query/audit-query.js';
import { FileAuditQuery } from '../../../src/adapters/audit-query/file-audit-query.js';
import { fullRecord } from '../audit-postgres/records.js';
import { appendOrder, CHILD, FROM, GUARDIAN, inWindow, TO } from './scenario.js';

describe('FileAuditQuery over the embedded JSON-lines trail', () => {
  let dir: string;
  let file: string;
  const warnings: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'audit-query-'));
    file = path.join(dir, 'audit', 'audit-trail.jsonl');
    const trail = await FileAuditTrail.open(file);
    // Many lines about other patients, so the search has to skip most of what it streams.
    await Promise.all(Array.from({ length: 3000 }, (_, i) => trail.append(fullRecord(100 + i, { requestId: `noise-${i}`, patientId: '191212121212' }))));
    for (const record of appendOrder) await trail.append(record);
    await trail.close();
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('returns every access to the patient in the window, both bounds included, oldest first, without the chain fields', async () => {
    const query = new FileAuditQuery(file, (m) => warnings.push(m));
    expect(await query.accessesTo(CHILD, FROM, TO)).toEqual(inWindow);
    expect(warnings).toEqual([]);
  });

  it('leaves out a millisecond either side and other patients', async () => {
    const query = new FileAuditQuery(file, (m) => warnings.push(m));
    const narrow = await query.accessesTo(CHILD, new Date(FROM.getTime() + 1), new Date(TO.getTime() - 1));
    expect(narrow.map((r) => r.requestId)).toEqual(['guardian-read', 'kiosk-refused']);
    expect((await query.accessesTo(GUARDIAN, FROM, TO)).map((r) => r.requestId)).toEqual(['other-patient']);
  });

  it('reports a torn line by its number, whoever it was about, and still returns the rest', async () => {
    const torn = path.join(dir, 'torn.jsonl');
    const lines = appendOrder.map((r) => JSON.stringify(r));
    await appendFile(torn, `${lines.slice(0, 3).join('\n')}\n{"time":"2026-11-21T10:00:00.000Z","requestId":"x","pat\n${lines.slice(3).join('\n')}\n`);
    const seen: string[] = [];
    const result = await new FileAuditQuery(torn, (m) => seen.push(m)).accessesTo(CHILD, FROM, TO);
    expect(result).toEqual(inWindow);
    expect(seen).toEqual(['line 4 of the audit trail is not a readable record; skipped']);
  });

  it('says so when there is no trail file, rather than reporting no accesses', async () => {
    const query = new FileAuditQuery(path.join(dir, 'nowhere.jsonl'), () => undefined);
    await expect(query.accessesTo(CHILD, FROM, TO)).rejects.toBeInstanceOf(AuditTrailMissingError);
  });
});

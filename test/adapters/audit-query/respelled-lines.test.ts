/**
 * Hostile review helper-133, F3: a line of the file trail spelled otherwise than the service writes it, the
 * same JSON (`"patientId":"20170101\u0032393"`), left the chain check intact, since its hash is of the parsed
 * record, and hid the record from the patient's access log, whose reader picks lines by their bytes before
 * parsing them. The check now takes only the service's own spelling of a line, and every reader of the
 * trail picks every line that may name the patient, however it is spelled.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFileChain } from '../../../src/adapters/audit-file/chain-check.js';
import { FileAuditTrail } from '../../../src/adapters/audit-file/file-audit-trail.js';
import { FileAccessLog } from '../../../src/adapters/audit-query/file-access-log.js';
import { FileAuditFeed } from '../../../src/adapters/audit-query/file-audit-feed.js';
import { FileAuditQuery } from '../../../src/adapters/audit-query/file-audit-query.js';
import { CHILD, fullRecord, GUARDIAN } from '../audit-postgres/records.js';
import { KEYS, k1 } from './keyed-trails.js';

/** The same record spelled three ways no JSON reader tells apart from the service's. */
const RESPELLINGS: Array<(line: string) => string> = [
  (line) => line.replace(`"patientId":"${CHILD}"`, `"patientId":"${CHILD.slice(0, 8)}\\u0032${CHILD.slice(9)}"`),
  (line) => line.replace(`"patientId":"${CHILD}"`, `"patient\\u0049d":"${CHILD}"`),
  (line) => line.replace(`"patientId":"${CHILD}"`, `"patientId": "${CHILD}"`),
];

describe('the file trail spelled otherwise than written', () => {
  let dir: string;
  let original: string;
  const FROM = new Date('2026-11-21T08:00:00.000Z');
  const TO = new Date('2026-11-21T10:00:00.000Z');

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'respelled-'));
    const file = path.join(dir, 'original.jsonl');
    const trail = await FileAuditTrail.open(file, { key: k1 });
    // Lines 1 to 5, each about the child, read by her guardian.
    for (let n = 1; n <= 5; n++) await trail.append(fullRecord(n));
    await trail.close();
    original = await readFile(file, 'utf8');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** The trail with line 3 respelled by `respell`. */
  const respelled = async (i: number, respell: (line: string) => string): Promise<string> => {
    const lines = original.split('\n');
    const changed = respell(lines[2] ?? '');
    expect(changed).not.toBe(lines[2]);
    lines[2] = changed;
    const file = path.join(dir, `respelled-${i}.jsonl`);
    await writeFile(file, lines.join('\n'));
    return file;
  };

  it('the chain check breaks at the respelled line', async () => {
    expect((await checkFileChain(path.join(dir, 'original.jsonl'), { keys: KEYS.byId })).broken).toBeUndefined();
    for (const [i, respell] of RESPELLINGS.entries()) {
      const check = await checkFileChain(await respelled(i, respell), { keys: KEYS.byId });
      expect(check.broken, `respelling ${i}`).toMatchObject({ id: 3, why: 'it is not spelled as the service writes its lines: it was altered' });
    }
  });

  // Hostile review helper-134, F1: the chain check split lines as readline does, on a lone CR too, and the access
  // log on the newline byte alone: one byte (the newline ending a line turned into CR) hid the next record
  // from the patient's log, and the check found two intact lines where the log read one unreadable.
  it('a line break turned into a carriage return breaks the chain where the lines were joined', async () => {
    const joined = path.join(dir, 'joined.jsonl');
    const lines = original.split('\n');
    await writeFile(joined, `${lines.slice(0, 2).join('\n')}\r${lines.slice(2).join('\n')}`);
    const check = await checkFileChain(joined, { keys: KEYS.byId });
    expect(check.broken).toMatchObject({ id: 2, why: 'it is not a readable record' });
    expect(check.newest?.id).toBe(1);
  });

  // Hostile review helper-134, F2: a token's `sub` holding U+2028 or U+2029 (JSON.stringify leaves them raw) made the
  // service's own line two lines to readline: the check broke there for good, and npm run audit dropped the record.
  it('the service\'s own lines holding U+2028, U+2029, a lone CR or NEL verify, and are read whole', async () => {
    const file = path.join(dir, 'separators.jsonl');
    const trail = await FileAuditTrail.open(file, { key: k1 });
    const subjects = ['kiosk\u20287', 'kiosk\u20298', 'kiosk\r9', 'kiosk\u008510'];
    for (const [i, subject] of subjects.entries()) await trail.append(fullRecord(i + 1, { actor: { issuer: 'https://idp.example.test', subject, personId: GUARDIAN } }));
    await trail.close();
    const check = await checkFileChain(file, { keys: KEYS.byId });
    expect([check.broken, check.checked]).toEqual([undefined, 4]);
    const audited = await new FileAuditQuery(file, () => undefined).accessesTo(CHILD, FROM, TO);
    expect(audited.map((r) => r.actor?.subject)).toEqual(subjects);
    expect((await new FileAccessLog(file).page({ patientId: CHILD, limit: 100 })).map((e) => e.access.requestId)).toEqual(['req-1', 'req-2', 'req-3', 'req-4']);
  });

  it('the patient\'s access log, npm run audit and the audit feed still find the respelled record', async () => {
    for (const [i, respell] of RESPELLINGS.entries()) {
      const file = await respelled(i, respell);
      const log = await new FileAccessLog(file).page({ patientId: CHILD, limit: 100 });
      expect(log.map((e) => e.access.requestId), `respelling ${i}`).toEqual(['req-1', 'req-2', 'req-3', 'req-4', 'req-5']);
      // The guardian's own log names none of them: she is the actor, not the patient.
      expect(await new FileAccessLog(file).page({ patientId: GUARDIAN, limit: 100 })).toEqual([]);
      const audited = await new FileAuditQuery(file, () => undefined).accessesTo(CHILD, FROM, TO);
      expect(audited.map((r) => r.requestId), `respelling ${i}`).toEqual(['req-1', 'req-2', 'req-3', 'req-4', 'req-5']);
      const fed = await new FileAuditFeed(file).after('file:0:', 100);
      expect(fed.records.map((r) => [r.requestId, r.patientId]), `respelling ${i}`).toEqual([1, 2, 3, 4, 5].map((n) => [`req-${n}`, CHILD]));
    }
  });
});

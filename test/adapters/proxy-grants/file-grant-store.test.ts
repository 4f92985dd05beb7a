/**
 * Issue 53 (bench part 12): the file store reads its version with a synchronous stat and hands out
 * copies made by hand. What that must keep: another process's change is seen by the very next read,
 * and nothing a caller does to a grant it was handed changes what is kept.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileGrantStore } from '../../../src/adapters/proxy-grants/file-grant-store.js';
import type { StoredGrant } from '../../../src/ports/proxy-grants.port.js';

const T0 = Date.UTC(2026, 10, 26, 9);
const grant = (id: string, state: StoredGrant['state'] = 'pending'): StoredGrant => ({
  id, state, grantor: '198112189876', grantee: '191212121212', categories: ['LabResult', 'Diagnosis'],
  validFromMs: T0, createdMs: T0, changedMs: T0,
});

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
const twoProcesses = async (): Promise<[FileGrantStore, FileGrantStore]> => {
  const dir = await mkdtemp(path.join(tmpdir(), 'grants-'));
  dirs.push(dir);
  return [await FileGrantStore.open(dir), await FileGrantStore.open(dir)];
};

describe('issue 53: the file grant store', () => {
  it('sees a grant another instance accepted, and then revoked, from the very next read', async () => {
    const [a, b] = await twoProcesses();
    await a.create(grant('g1'), () => undefined);
    expect(await b.activeReceivedBy('191212121212')).toEqual([]);
    await a.change('g1', ['pending'], { state: 'active', changedMs: T0 + 1 }, { grantId: 'g1', kind: 'accepted', atMs: T0 + 1, by: 'grantee', grantor: '198112189876', grantee: '191212121212' });
    expect((await b.activeReceivedBy('191212121212')).map((g) => g.id)).toEqual(['g1']);
    await a.change('g1', ['active'], { state: 'revoked', changedMs: T0 + 2, endedBy: 'grantor' }, { grantId: 'g1', kind: 'revoked', atMs: T0 + 2, by: 'grantor', grantor: '198112189876', grantee: '191212121212' });
    expect(await b.activeReceivedBy('191212121212')).toEqual([]);
    await a.close();
    await b.close();
  });

  it('hands out copies: changing one changes nothing kept', async () => {
    const [a] = await twoProcesses();
    const given = grant('g2', 'active');
    await a.create(given, () => undefined);
    (given.categories as string[]).push('JournalNote');
    const [read] = await a.activeReceivedBy('191212121212');
    expect(read?.categories).toEqual(['LabResult', 'Diagnosis']);
    (read?.categories as string[]).push('*');
    (read as { state: string }).state = 'revoked';
    expect(await a.byId('g2')).toMatchObject({ state: 'active', categories: ['LabResult', 'Diagnosis'] });
    await a.close();
  });
});

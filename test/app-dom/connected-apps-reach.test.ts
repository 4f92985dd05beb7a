/**
 * The Connected apps tab says what each app opens as the connected-apps API says it (docs/smart-launch.md#connected-apps):
 * a launch's one record by name, a plain grant (`reach` `everyone`) the person's own record and those they act for.
 * Newcomer walk-through helper-193, F1: a plain grant was shown as opening the person's own record alone, though it
 * read the records of everyone they act for. Failed before: "Opens the record of Märta Ström (yourself)".
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectedAppsView, type ConnectedApp } from '../../app/src/connected-apps.js';
import { fakeDocument, type FakeElement } from './fake-document.js';

const textOf = (nodes: Node[]): string => (nodes as unknown as FakeElement[]).map((n) => n.text()).join('\n');

const app = (reach: ConnectedApp['reach']): ConnectedApp => ({
  id: 'g1', appName: 'API documentation (/docs)', patient: { name: 'Märta Ström', basis: 'self' }, reach, allowedBy: 'you', scopes: [],
});

describe('what a connected app opens', () => {
  beforeEach(() => { vi.stubGlobal('document', fakeDocument); });
  afterEach(() => { vi.unstubAllGlobals(); });

  it('a plain grant: the person\'s own record and the records of the people they act for, in both languages', () => {
    const en = textOf(connectedAppsView([app('everyone')], 'en', () => {}));
    expect(en).toContain('Opens your record and the records of the people you act for.');
    expect(en).not.toContain('Opens the record of Märta Ström');
    expect(en).toContain('Revoke API documentation (/docs)\'s access to your record and the records of the people you act for');
    const sv = textOf(connectedAppsView([app('everyone')], 'sv', () => {}));
    expect(sv).toContain('Öppnar din journal och journalerna för dem du företräder.');
    expect(sv).not.toContain('Öppnar journalen för Märta Ström');
  });

  it('a launch: the one record picked, by name', () => {
    const en = textOf(connectedAppsView([app('picked')], 'en', () => {}));
    expect(en).toContain('Opens the record of Märta Ström (yourself).');
  });
});

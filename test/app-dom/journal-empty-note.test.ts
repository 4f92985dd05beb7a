/**
 * A note with nothing left to show (every section withdrawn by the EHR: entered in error, hostile
 * review helper-222, F3) says so under its date and author, in the reader's language. Failed
 * before: a signed note's card ended at its author, as though its text had been lost.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { journalNotes } from '../../app/src/journal.js';
import { all, fakeDocument, type FakeElement } from './fake-document.js';

const note = (id: string, section?: unknown[]) => ({
  resourceType: 'Composition', id, status: 'final', type: { text: 'Besöksanteckning' }, date: '2026-11-30T10:00:00+01:00', title: 'Besöksanteckning',
  ...(section === undefined ? {} : { section }),
});

describe('a journal note with nothing to show', () => {
  beforeEach(() => { vi.stubGlobal('document', fakeDocument); });
  afterEach(() => { vi.unstubAllGlobals(); });

  it('says the note has no content, and says nothing so of a note with a section', () => {
    for (const [lang, words] of [['en', 'The note has no content to show.'], ['sv', 'Anteckningen har inget innehåll att visa.']] as const) {
      const list = journalNotes([note('empty'), note('written', [{ title: 'Aktuellt' }])] as never, lang) as unknown as FakeElement;
      const cards = all(list, 'li');
      const texts = cards.map((c) => all(c, 'p').map((p) => p.text()));
      expect(texts).toEqual([[words], []]);
      expect(all(cards[1] as FakeElement, 'h4').map((e) => e.text())).toEqual(['Aktuellt']);
    }
  });
});

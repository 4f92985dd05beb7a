/**
 * The list view shows a resource's notes as written, but not one its narrative already says
 * (app/src/notes.ts). Failed before: any note whose text occurred inside the narrative was left
 * out, so a short comment vanished behind a sentence that happened to hold its words.
 */
import { describe, expect, it } from 'vitest';
import { unsaidNotes } from '../../app/src/notes.js';

const note = (text: string) => ({ text, time: '2025-05-13T08:30:00+02:00' });

describe('the notes a card shows', () => {
  it('leaves out a note the narrative says on lines of its own, one line or several', () => {
    const narrative = 'Penicilliner\nAnafylaktisk reaktion efter V-penicillin.\nUndvik alla betalaktamer.\nAktiv';
    expect(unsaidNotes([note('Anafylaktisk reaktion efter V-penicillin.'), note('  Anafylaktisk reaktion efter V-penicillin.\nUndvik alla betalaktamer. ')], narrative)).toEqual([]);
  });

  it('shows a note whose words only occur inside a line of the narrative', () => {
    const narrative = 'Ej verifierad vid lapptest – makulerad enligt beslut\nInaktiv';
    const shown = [note('Ej verifierad vid lapptest – makulerad'), note('makulerad'), note('Inakt')];
    expect(unsaidNotes(shown, narrative)).toEqual(shown);
  });

  it('shows every note with text when there is no narrative, and none that is empty or no text', () => {
    const written = note('Ej verifierad vid lapptest – makulerad');
    expect(unsaidNotes([written, note('  \n '), { time: '2025-05-13' } as { text?: string }], undefined)).toEqual([written]);
  });
});

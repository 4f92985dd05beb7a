/**
 * Hostile review helper-138, F1: the patient app named each access log event by its AuditEvent.outcome code alone, so a
 * payment the EHR did not confirm (it may have been registered) read "Misslyckades av tekniska skäl", and a check-in
 * refused outside its window "Nekad", whatever the log said came of them. The app now shows the log's own words in the
 * page's language (`_outcomeDesc`, FHIR's translation extension), and the outcome code's name where the log gives none.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accessLog } from '../../app/src/access-log.js';
import type { AuditEvent } from '../../app/src/fhir-types.js';
import { all, fakeDocument, type FakeElement } from './fake-document.js';

const TRANSLATION = 'http://hl7.org/fhir/StructureDefinition/translation';
const UNKNOWN = { sv: 'Okänt om den registrerades: journalsystemet bekräftade den inte', en: 'Not known whether it was registered: the EHR did not confirm it' };

function event(n: number, outcome: string, words?: { sv: string; en: string }): AuditEvent {
  return {
    resourceType: 'AuditEvent', id: `e${n}`, recorded: `2026-11-30T08:0${n}:00Z`, outcome,
    subtype: [{ system: 'urn:patient-data-access:operation', code: 'registerPayment', display: 'Payment' }],
    agent: [{ type: { text: 'The patient' }, requestor: true }, { who: { display: 'kiosk-1' }, requestor: false }],
    ...(words === undefined ? {} : {
      outcomeDesc: words.en,
      _outcomeDesc: { extension: (['sv', 'en'] as const).map((lang) => ({ url: TRANSLATION, extension: [{ url: 'lang', valueCode: lang }, { url: 'content', valueString: words[lang] }] })) },
    }),
  } as AuditEvent;
}

const shown = (events: AuditEvent[], lang: 'sv' | 'en') => {
  const log = accessLog(events, lang) as unknown as FakeElement;
  const rows = all(log, 'tr').slice(1).map((tr) => tr.children.map((td) => (typeof td === 'string' ? td : td.text()))[2]);
  const flagged = all(log, 'span').filter((s) => s.attrs.class === 'log-line flag').map((s) => s.text().replace(/^!\u00a0/, ''));
  return { rows, flagged };
};

describe('the patient app says what came of each event in the page\'s language', () => {
  beforeEach(() => { vi.stubGlobal('document', fakeDocument); });
  afterEach(() => { vi.unstubAllGlobals(); });

  it('shows a payment whose outcome is not known as that, in Swedish and English, not as failed', () => {
    const events = [event(3, '8', UNKNOWN), event(2, '8', { sv: 'Misslyckades av tekniska skäl', en: 'Failed for technical reasons' }), event(1, '0', { sv: 'Betalningen registrerades', en: 'Payment registered' })];
    expect(shown(events, 'sv')).toEqual({
      rows: [UNKNOWN.sv, 'Misslyckades av tekniska skäl', 'Betalningen registrerades'],
      flagged: [`${UNKNOWN.sv} (1), Misslyckades av tekniska skäl (1)`],
    });
    expect(shown(events, 'en').rows).toEqual([UNKNOWN.en, 'Failed for technical reasons', 'Payment registered']);
  });

  // A result form a later version wrote claims no outcome (helper-139, F1): flagged, by the log's words, never counted as done.
  it('flags an event whose outcome the log leaves out, by its words', () => {
    const newer = { sv: 'Utfallet kan inte visas i den här versionen', en: 'This version cannot show the outcome' };
    const { outcome: _left, ...unknownOutcome } = event(2, '0', newer);
    expect(shown([unknownOutcome as AuditEvent, event(1, '0', { sv: 'Betalningen registrerades', en: 'Payment registered' })], 'sv'))
      .toEqual({ rows: [newer.sv, 'Betalningen registrerades'], flagged: [`${newer.sv} (1)`] });
  });

  it('names an event by its outcome code where the log gives no words in the page\'s language', () => {
    const englishOnly = { ...event(2, '4'), outcomeDesc: 'Refused' };
    expect(shown([englishOnly, event(1, '8')], 'sv')).toEqual({ rows: ['Nekad', 'Misslyckades av tekniska skäl'], flagged: ['Nekad (1), Misslyckades av tekniska skäl (1)'] });
  });
});

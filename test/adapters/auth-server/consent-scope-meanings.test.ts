/**
 * docs/contract.md §11: the consent page says what the Consent scopes give an app in words, in
 * Swedish and English: the person's own grants, never "Consent resources" of whoever is picked.
 */
import { describe, expect, it } from 'vitest';
import { API_SCOPES } from '../../../src/adapters/auth-server/clients.js';
import { consentPage } from '../../../src/adapters/auth-server/interaction-pages.js';
import { LANGUAGES, type Lang } from '../../../src/adapters/auth-server/page-language.js';
import { scopeMeaning } from '../../../src/adapters/auth-server/scope-meanings.js';
import { FHIR_TYPES } from '../../../src/domain/fhir/search-parameters.js';
import { isPersonScope } from '../../../src/adapters/auth-server/smart-launch.js';

describe('the Consent scopes on the consent page', () => {
  it('say whom the person shares their record with, and that the app may share and end sharing', () => {
    expect(scopeMeaning('patient/Consent.rs')).toBe('See whom you share your record with and what, and who shares theirs with you');
    expect(scopeMeaning('user/Consent.read', 'sv')).toBe('Se vilka du delar din journal med och vad, och vilka som delar sin med dig');
    expect(scopeMeaning('patient/Consent.cud')).toBe('Share your record with someone you choose, and end such sharing');
    expect(scopeMeaning('user/Consent.write', 'sv')).toBe('Dela din journal med någon du väljer, och avsluta sådan delning');
    expect(scopeMeaning('patient/Consent.cruds')).toContain('; share your record');
  });

  it('are scopes a person may be granted, and a Consent scope that allows nothing is not', () => {
    for (const scope of ['patient/Consent.rs', 'patient/Consent.cud', 'user/Consent.read', 'user/Consent.write']) expect([scope, isPersonScope(scope, new Set())]).toEqual([scope, true]);
    expect(isPersonScope('patient/Consent.u', new Set())).toBe(false);
    expect(isPersonScope('system/Consent.cud', new Set())).toBe(false);
  });
});

/**
 * Issue 55 item 7: the consent page says in words what each scope grants, in Swedish and English, the
 * scope as written in small print after them. The words come from what the server's scopes mean (the
 * operation table's reads, their names in the access log, the API's scopes and their SMART forms), so
 * every scope the server takes is checked here, not a list of some: a new read or type is said in words
 * or this fails.
 */
describe('issue 55 item 7: every scope the server takes, in words a person reads', () => {
  const FRAME = (lang: Lang) => ({ lang, banner: '', selfUrl: '/interaction/x' });
  // What the server takes: the COS API's scopes, and SMART's read scopes of every type the FHIR API serves.
  const taken = [...API_SCOPES, ...FHIR_TYPES.flatMap((type) => [`patient/${type}.rs`, `user/${type}.read`]), 'patient/*.rs', 'user/*.cruds'];

  it.each(LANGUAGES)('says each one in words, never by a FHIR type\'s name nor as an event of the access log (%s)', (lang) => {
    const unsaid = taken.flatMap((scope) => {
      const meaning = scopeMeaning(scope, lang);
      if (meaning === undefined) return [`${scope}: no words`];
      const typeNamed = FHIR_TYPES.find((type) => new RegExp(`\\b${type}\\b`).test(meaning));
      return typeNamed === undefined && !/^(Läsa|Ändra och skicka): /.test(meaning) ? [] : [`${scope}: ${meaning}`];
    });
    expect(unsaid).toEqual([]);
  });

  it('says what the log, lab results and the whole record are, by the names the access log gives them', () => {
    expect(scopeMeaning('patient/AuditEvent.rs')).toBe('Read the log of who accessed the data of the person picked');
    expect(scopeMeaning('patient/AuditEvent.rs', 'sv')).toBe('Läsa loggen över vem som tagit del av uppgifterna för den du valde');
    expect(scopeMeaning('patient/Observation.rs', 'sv')).toBe('Läsa provsvar för den du valde');
    expect(scopeMeaning('user/Observation.rs?category=http://terminology.hl7.org/CodeSystem/observation-category|laboratory')).toBe('Read lab results (only category laboratory) of everyone you may act for');
    expect(scopeMeaning('patient/*.rs', 'sv')).toBe('Läsa hela journalen för den du valde');
    expect(scopeMeaning('user/Proxy-read', 'sv')).toBe('Se vilka du delar din journal med och vad, och vilka som delar sin med dig');
    expect(scopeMeaning('user/LabResult-read', 'sv')).toBe('Läsa provsvar');
  });

  it.each(LANGUAGES)('shows the words first and the scope as written in small print (%s)', (lang) => {
    const html = consentPage(FRAME(lang), { sharingOffered: true, submitUrl: '/s', abortUrl: '/a', appName: 'App', csrf: 't', scopes: ['patient/*.rs', 'patient/AuditEvent.rs', 'x/unknown'], picked: { name: 'Lilla', basis: 'guardian' }, everyone: [{ name: 'Märta', basis: 'self' }, { name: 'Lilla', basis: 'guardian' }] });
    const list = /<ul class="scopes">([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? '';
    const items = [...list.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => m[1] ?? '');
    expect(items).toHaveLength(3);
    expect(items[0]).toMatch(/^[^<]+<span class="reach">[^<]+<\/span><small class="scope"><code>patient\/\*\.rs<\/code><\/small>$/);
    expect(items[1]).toMatch(/^[^<]+<span class="reach">[^<]+<\/span><small class="scope"><code>patient\/AuditEvent\.rs<\/code><\/small>$/);
    // A scope the server has no words for (helper-147, F8: `user/Proxy.rs`, a type no door serves) says it opens nothing, in the page's language.
    expect(items[2]).toBe(`${{ en: 'Nothing: this service does not know this permission', sv: 'Ingenting: tjänsten känner inte till den här behörigheten' }[lang]}<small class="scope"><code>x/unknown</code></small>`);
  });

  it('names no one\'s records for the scopes of sharing in an app opened for the person herself: they reach her own grants', () => {
    for (const picked of [{ picked: { name: 'Märta', basis: 'self' as const } }, {}]) {
      const html = consentPage(FRAME('en'), { sharingOffered: true, submitUrl: '/s', abortUrl: '/a', appName: 'App', csrf: 't', scopes: ['user/Proxy-read', 'patient/Consent.cud'], ...picked, everyone: [{ name: 'Märta', basis: 'self' }, { name: 'Lilla', basis: 'guardian' }] });
      expect(html).toContain('<li>See whom you share your record with and what, and who shares theirs with you<small class="scope"><code>user/Proxy-read</code></small></li>');
      expect(html).toContain('<li>Share your record with someone you choose, and end such sharing<small class="scope"><code>patient/Consent.cud</code></small></li>');
    }
  });

  // Hostile review helper-146, LOW-2: with Lilla picked, `patient/Consent.cud` was worded as sharing Märta's record, which both doors then refuse.
  it.each(LANGUAGES)('says in an app opened for someone else that sharing\'s scopes reach her own grants to see, under a user/ scope alone (%s)', (lang) => {
    const scopes = ['user/Proxy-read', 'patient/Consent.cud', 'user/Consent.*', 'patient/Consent.rs', 'user/Proxy-write'];
    const html = consentPage(FRAME(lang), { sharingOffered: true, submitUrl: '/s', abortUrl: '/a', appName: 'App', csrf: 't', scopes, picked: { name: 'Lilla', basis: 'guardian' }, everyone: [{ name: 'Märta', basis: 'self' }, { name: 'Lilla', basis: 'guardian' }] });
    const reach = (scope: string) => new RegExp(`<li>[^<]*<span class="reach">([^<]*)</span><small class="scope"><code>${scope.replace(/[.*/]/g, '\\$&')}</code>`).exec(html)?.[1];
    const words = {
      en: { yours: 'Whose records: yours', seeOnly: 'Whose records: yours, to see only (to share it, open the app for yourself)', nobody: 'Whose records: nobody\'s (sharing your record needs the app opened for yourself)' },
      sv: { yours: 'Vems journaler: din egen', seeOnly: 'Vems journaler: din egen, bara att se (öppna appen för dig själv för att dela den)', nobody: 'Vems journaler: ingens (att dela din journal kräver att appen öppnas för dig själv)' },
    }[lang];
    expect(scopes.map(reach)).toEqual([words.yours, words.nobody, words.seeOnly, words.nobody, words.nobody]);
  });
});

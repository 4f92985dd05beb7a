// A refused grant request says which member and what it must be, and never repeats an identity number
// the person typed into the wrong member (hostile review: a category named by a number came back in the 400).
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import { checkGrantRequest, PAST_START_SKEW_MS, type GrantRequest } from '../../../src/domain/proxies/grant-request.js';

const TOLVAN = '191212121212';
const MARTA = '198112189876';
const NOW = Date.parse('2026-11-28T09:00:00Z');

const refusal = (categories: string[]): string => {
  try {
    checkGrantRequest({ grantee: MARTA, categories }, TOLVAN, NOW, 'Europe/Stockholm', { invitationDays: 7, maxGrants: 10, maxGrantsPerDay: 20, maxGrantsToOnePerDay: 3 });
  } catch (err) {
    if (err instanceof DomainError) return err.message;
    throw err;
  }
  throw new Error('not refused');
};

describe('a grant request\'s refusals', () => {
  it('repeat an unknown category as typed, but never one that holds an identity number', () => {
    expect(refusal(['Vaccinations'])).toContain('"Vaccinations"');
    for (const typed of [MARTA, `${MARTA.slice(2, 8)}-${MARTA.slice(8)}`, `LabResult ${MARTA}`]) {
      const message = refusal([typed]);
      expect([typed, message.startsWith('Body member categories'), /\d{6}/.test(message)]).toEqual([typed, true, false]);
    }
  });
});

const checked = (request: Partial<GrantRequest>) =>
  checkGrantRequest({ grantee: MARTA, categories: ['LabResult'], ...request }, TOLVAN, NOW, 'Europe/Stockholm', { invitationDays: 7, maxGrants: 10, maxGrantsPerDay: 20, maxGrantsToOnePerDay: 3 });
const messageOf = (request: Partial<GrantRequest>): string => {
  try {
    checked(request);
  } catch (err) {
    if (err instanceof DomainError) return err.message;
    throw err;
  }
  return 'taken';
};

// Hostile review: the FHIR door took instants past year 9999 (stored, then written as `100000101005959` on the COS
// door and `+010000-01-01T00:59+01:00` on FHIR), and both doors took a start in 1900 or 2020. Failed before: all taken.
describe('a grant\'s times', () => {
  it('are within the years 0001 to 9999 of local time, as the COS door writes them', () => {
    const lastSecond = Date.parse('9999-12-31T22:59:59Z');
    expect(checked({ validTo: { epochMs: lastSecond } }).validToMs).toBe(lastSecond + 999);
    for (const epochMs of [lastSecond + 1000, Date.parse('9999-12-31T23:59:59Z'), 8.64e15]) {
      expect([epochMs, messageOf({ validTo: { epochMs } })]).toEqual([epochMs, 'Body member validTo must be a time from 0001-01-01T00:00:00 to 9999-12-31T23:59:59 in Europe/Stockholm.']);
    }
    expect(messageOf({ validFrom: { epochMs: Date.parse('9999-12-31T23:30:00Z') } })).toContain('Body member validFrom must be a time from');
  });

  it('start when the grant is given or later: a start in the past is refused, one a clock\'s skew back is taken as now', () => {
    for (const validFrom of ['2020-01-01T00:00:00', { epochMs: Date.parse('1900-01-01T00:00:00Z') }, { epochMs: NOW - PAST_START_SKEW_MS - 1000 }]) {
      expect([validFrom, messageOf({ validFrom })]).toEqual([validFrom, 'Body member validFrom is in the past: give a time to come, or leave it out to share from now.']);
    }
    expect(checked({ validFrom: { epochMs: NOW - 60_000 } }).validFromMs).toBe(NOW);
    expect(checked({ validFrom: '2026-11-28T10:00:00' }).validFromMs).toBe(NOW);
    expect(checked({ validFrom: '2026-11-28T10:30:00' }).validFromMs).toBe(NOW + 30 * 60_000);
  });
});

// Hostile review helper-162 F4: characters no one sees (a zero-width space, a soft hyphen, a byte-order mark,
// the Arabic letter mark, tag characters) passed as plain text, so a grantor could hide text in what the grantee reads.
describe('a grant\'s purpose', () => {
  it('is refused with any character that shows nothing, and taken with those that join scripts and emoji', () => {
    for (const hidden of ['\u200b', '\ufeff', '\u00ad', '\u061c', '\u2060', '\u034f', '\u180e', '\u{1d173}', '\u{e0041}', '\u3164']) {
      expect([hidden.codePointAt(0), messageOf({ purpose: `Följa${hidden}prover` })])
        .toEqual([hidden.codePointAt(0), 'Body member purpose must be plain text on one line, without control or invisible characters.']);
    }
    for (const shown of ['Följa mina prover', 'می\u200cخواهم', '👩\u200d👧 barnen', '❤\ufe0f tack', '❤\ufe0f\u200d🔥', '👍🏽 ok', 'Tiếng Việt', 'क्षि']) {
      expect(checked({ purpose: shown }).purpose).toBe(shown);
    }
  });

  // Re-review helper-165 F3: variation selectors (256 of them) and joiners were taken anywhere, so a byte a character
  // could still be hidden ("Hej" carried "call 0701234567, send BankID code"); and stacked or enclosing marks cover text.
  it('is refused with a selector or joiner where no character it joins or varies is, and with marks stacked over a letter', () => {
    const hidden = (text: string): string => [...new TextEncoder().encode(text)].map((b) => String.fromCodePoint(b < 16 ? 0xfe00 + b : 0xe0100 + b - 16)).join('');
    for (const bad of [
      `Hej${hidden('call 0701234567')}`, 'Hej\ufe00', 'a\u{e0100}', 'Hej\ufe0f\ufe0f', '\u200dHej', 'Hej\u200d', 'a\u200d\u200db', 'a\u200c\u200cb',
      'Hej\ufff9dold\ufffb', 'a\u{13430}b', 'a\u20dd', 'a\u0301\u0301\u0301\u0301\u0301', 'Hej\u0600', '葛\u{e0100}', 'Tie\u0302\u0301ng', '1\ufe0f', 'क\u093f\u093f\u093f\u200d\u093f\u093f',
    ]) {
      expect([[...bad].map((c) => c.codePointAt(0)?.toString(16)).join(' '), messageOf({ purpose: bad })])
        .toEqual([[...bad].map((c) => c.codePointAt(0)?.toString(16)).join(' '), 'Body member purpose must be plain text on one line, without control or invisible characters.']);
    }
  });
});

// Third re-review helper-166 F2: joiners and presentation selectors after Latin letters carried a base-3 message
// ("BankID 0701234567" in a 72-letter Swedish sentence); F3: real text of joining scripts, keycaps and flags was refused.
describe('a grant\'s purpose, the hidden-text rule', () => {
  const REFUSED = 'Body member purpose must be plain text on one line, without control or invisible characters.';
  it('refuses a joiner or selector where it joins or varies nothing, odd spaces, private use and unassigned code points', () => {
    const cover = 'Hej mamma, här är tillgången';
    const trits = [...'BankID 0701234567'].flatMap((ch) => ch.charCodeAt(0).toString(3).padStart(5, '0').split('').map(Number));
    const letters = [...cover];
    const encoded = letters.map((ch, i) => `${ch}${['', '\ufe0e', '\ufe0f'][trits[2 * i] ?? 0]}${i < letters.length - 1 ? ['', '\u200c', '\u200d'][trits[2 * i + 1] ?? 0] : ''}`).join('');
    expect(encoded.length).toBeGreaterThan(cover.length);
    for (const bad of [encoded, 'Hej\ufe0f', 'a\u200db', 'a\u200cb', 'Hej\u2002', 'Hej\u3000\u2002', 'Hej\u2800', 'a\ue000', 'a\u0378', 'a\ufdd0', 'a\ufffc', '1\ufe0f\ufe0f']) {
      expect([[...bad].map((c) => c.codePointAt(0)?.toString(16)).join(' '), messageOf({ purpose: bad })]).toEqual([[...bad].map((c) => c.codePointAt(0)?.toString(16)).join(' '), REFUSED]);
    }
  });

  it('takes joining scripts\' joiners, keycaps, subdivision flags, ideographic variants and pointed Hebrew', () => {
    for (const shown of [
      '1\ufe0f\u20e3 #\ufe0f\u20e3', '\u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f} hej', 'क्\u200dष', 'क्\u200cष', 'ශ්\u200dරී ලංකා',
      'র\u200d্য', 'ന്\u200d', 'بَ\u200cه', 'لَ\u200dا', 'בְּרֵאשִׁ֖ית', '1\u202f234\u202f567 kr', '3\u2009–\u20095 dagar', 'ᠮᠣᠩᠭᠣᠯ', '❤\ufe0f\u200d🔥', '👍🏽\u200d👩', '漢字\u3000と かな',
    ]) {
      expect([shown, messageOf({ purpose: shown })]).toEqual([shown, 'taken']);
    }
  });
});

// Hostile review helper-162 F7: validTo exactly PROXY_MAX_DAYS after validFrom was refused, its own second counted on top.
describe('PROXY_MAX_DAYS', () => {
  const within30 = (validTo: string) =>
    checkGrantRequest({ grantee: MARTA, categories: ['LabResult'], validFrom: '2030-01-01T00:00:00', validTo }, TOLVAN, NOW, 'Europe/Stockholm',
      { invitationDays: 7, maxGrants: 10, maxGrantsPerDay: 20, maxGrantsToOnePerDay: 3, maxDays: 30 });
  it('takes a validTo at most that many days after validFrom, to the second', () => {
    expect(within30('2030-01-31T00:00:00').validToMs).toBe(Date.parse('2030-01-30T23:00:00Z') + 999);
    expect(() => within30('2030-01-31T00:00:01')).toThrow('Body member validTo is too far from validFrom: a grant may last at most 30 days.');
  });

  // Re-review helper-165 F4: the days were 24-hour periods, so across autumn's clock change exactly 30 local days was
  // refused, and across spring's 30 days and 59:59 was taken.
  it('counts days on the local calendar, across the clocks\' changes', () => {
    const across = (validFrom: string, validTo: string) => () => checkGrantRequest({ grantee: MARTA, categories: ['LabResult'], validFrom, validTo }, TOLVAN, NOW,
      'Europe/Stockholm', { invitationDays: 7, maxGrants: 10, maxGrantsPerDay: 20, maxGrantsToOnePerDay: 3, maxDays: 30 });
    expect(across('2027-10-15T00:00:00', '2027-11-14T00:00:00')).not.toThrow();
    expect(across('2027-03-15T00:00:00', '2027-04-14T00:00:00')).not.toThrow();
    for (const [from, to] of [['2027-10-15T00:00:00', '2027-11-14T00:00:01'], ['2027-03-15T00:00:00', '2027-04-14T00:59:59']]) {
      expect(across(from as string, to as string)).toThrow('Body member validTo is too far from validFrom: a grant may last at most 30 days.');
    }
  });
});

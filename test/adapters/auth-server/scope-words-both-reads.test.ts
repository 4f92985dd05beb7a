/**
 * Hostile review helper-144, F1 (MEDIUM): a SMART Appointment scope opens the bookings and the video meetings on both
 * doors (both are Appointments, docs/contract.md#scopes), but the consent page said "Read booked appointments" alone,
 * and named someone who had shared only her video meetings under it. A type's words name every read that writes it.
 * F4 (LOW): a SMART form of sharing's scope that no door takes (`user/Proxy.rs`) was given garbled words.
 */
import { describe, expect, it } from 'vitest';
import { scopeMeaning, scopeReach } from '../../../src/adapters/auth-server/scope-meanings.js';

describe('the consent page\'s words for a scope name everything it opens', () => {
  it('names the video meetings beside the bookings for a SMART Appointment scope, in Swedish and English', () => {
    for (const scope of ['patient/Appointment.read', 'patient/Appointment.rs', 'user/Appointment.s']) {
      expect([scope, scopeMeaning(scope, 'en')]).toEqual([scope, expect.stringMatching(/booked appointments and video meetings/)]);
      expect([scope, scopeMeaning(scope, 'sv')]).toEqual([scope, expect.stringMatching(/bokade besök och videomöten/)]);
    }
    // The COS scope of the bookings opens the bookings alone, and says so.
    expect(scopeMeaning('user/Appointment-read', 'en')).toBe('Read booked appointments');
  });

  it('gives no words and no reach to a spelling of sharing\'s scope that no door takes', () => {
    for (const scope of ['user/Proxy.rs', 'user/Proxy.s', 'patient/Proxy.rs']) {
      expect([scope, scopeMeaning(scope, 'en'), scopeReach(scope)]).toEqual([scope, undefined, 'none']);
    }
    expect(scopeMeaning('user/Proxy-read', 'en')).toBe('See whom you share your record with and what, and who shares theirs with you');
  });

  // Hostile review helper-145, F1 and F2 (MEDIUM): the SMART forms of sharing's COS scopes, which the COS door takes, had no
  // words (user/Proxy.read), or the access log's event names run together (user/Proxy.write in Swedish).
  it('says sharing\'s words for the SMART forms of its COS scopes, as for the scopes themselves', () => {
    for (const lang of ['en', 'sv'] as const) {
      for (const [form, name] of [['user/Proxy.read', 'user/Proxy-read'], ['patient/Proxy.read', 'user/Proxy-read'], ['user/Proxy.write', 'user/Proxy-write'], ['patient/Proxy.write', 'user/Proxy-write']]) {
        expect([form, lang, scopeMeaning(form ?? '', lang)]).toEqual([form, lang, scopeMeaning(name ?? '', lang)]);
        expect([form, scopeReach(form ?? '')]).toEqual([form, 'none']);
      }
    }
    expect(scopeMeaning('user/Proxy.write', 'sv')).toBe('Dela din journal med någon du väljer, och avsluta sådan delning');
  });
});

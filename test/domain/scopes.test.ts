import { describe, expect, it } from 'vitest';
import { canonicalScope, scopesFromClaims } from '../../src/domain/access/scopes.js';

describe('scopes', () => {
  it('folds SMART-style scopes onto the API names', () => {
    expect(canonicalScope('user/Appointment.read')).toBe('user/Appointment-read');
    expect(canonicalScope('patient/Appointment.read')).toBe('user/Appointment-read');
    expect(canonicalScope('user/Appointment.write')).toBe('user/Appointment-write');
    expect(canonicalScope('user/PaymentNotice.write')).toBe('user/Payment-write');
    expect(canonicalScope('user/JournalNote-read')).toBe('user/JournalNote-read');
    expect(canonicalScope('system/Appointment.read')).toBe('system/Appointment.read');
  });

  it('reads scope (space-separated) and scp (string or array)', () => {
    expect([...scopesFromClaims('user/Patient-read  patient/Contact.read', undefined)]).toEqual(['user/Patient-read', 'user/Contact-read']);
    expect([...scopesFromClaims(undefined, ['user/JournalNote-read', 7])]).toEqual(['user/JournalNote-read']);
    expect([...scopesFromClaims(undefined, 'user/Payment-write')]).toEqual(['user/Payment-write']);
    expect(scopesFromClaims(undefined, undefined).size).toBe(0);
  });
});

/**
 * Which write answers show that the booking is the patient's, so that its outcome record may name it
 * (hostile review helper-127, F3): never an id the EHR did not find as the patient's.
 */
import { describe, expect, it } from 'vitest';
import { confirmsBooking, fromEhrResult, resultRecord, WRITE_OUTCOMES, type OutcomeCode } from '../../src/domain/writes/write-outcomes.js';

describe('confirmsBooking', () => {
  it('holds for every outcome of a booking found, and not for one not found', () => {
    const codes = Object.keys(WRITE_OUTCOMES) as OutcomeCode[];
    expect(Object.fromEntries(codes.map((code) => [code, confirmsBooking(resultRecord(code))]))).toEqual({
      ARRIVAL_REGISTERED: true, ALREADY_ARRIVED: true, PAYMENT_REGISTERED: true, ALREADY_PAID: true,
      CONTACT_NOT_FOUND: false, CONTACT_CANCELLED: true, NOT_PAYABLE: true, OUTSIDE_ARRIVAL_WINDOW: true,
    });
  });

  it('an EHR\'s OK or INFO of a reason unknown here is about the patient\'s booking; its ERROR, or a not-found under any code, is not', () => {
    expect(confirmsBooking(fromEhrResult({ resultCode: 'OK', reasonCode: 'SOMETHING_NEW' }))).toBe(true);
    expect(confirmsBooking(fromEhrResult({ resultCode: 'INFO', reasonCode: undefined }))).toBe(true);
    expect(confirmsBooking(fromEhrResult({ resultCode: 'ERROR', reasonCode: 'SOMETHING_NEW' }))).toBe(false);
    expect(confirmsBooking(fromEhrResult({ resultCode: 'ERROR', reasonCode: undefined }))).toBe(false);
    expect(confirmsBooking(fromEhrResult({ resultCode: 'OK', reasonCode: 'CONTACT_NOT_FOUND' }))).toBe(false);
    expect(confirmsBooking(fromEhrResult({ resultCode: 'INFO', reasonCode: 'CONTACT_NOT_FOUND' }))).toBe(false);
  });
});

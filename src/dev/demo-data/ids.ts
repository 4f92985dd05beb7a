import { createHash } from 'node:crypto';

/**
 * Identifiers of the demo data. Write outcomes (arrived, paid) are stored by (patient, ContactId),
 * so a booking's ContactId is made of the day it is planned for and a slot number unique in the
 * whole data set: the same on every restart that day, never reused by a booking on another day.
 * The leading zeros are deliberate; upstream ids are strings.
 */
export function contactId(plannedDay: string, slot: number): string {
  return `00${plannedDay.slice(2)}${slotDigits(slot)}`;
}

/** Video meeting ActionId (an integer upstream): same day-and-slot rule, no leading zero. */
export function actionId(plannedDay: string, slot: number): string {
  return `47${plannedDay.slice(2)}${slotDigits(slot)}`;
}

/** Web booking reference of a RegisteredBooking (it has no ContactId). */
export function webBookingId(plannedDay: string, slot: number): string {
  return `WB-${plannedDay.slice(0, 4)}-${plannedDay.slice(4)}${slotDigits(slot)}`;
}

function slotDigits(slot: number): string {
  if (!Number.isInteger(slot) || slot < 0 || slot > 999) throw new RangeError('slot must be 0..999');
  return String(slot).padStart(3, '0');
}

/** A stable UUID-shaped ehr_id, so regenerating never changes a record's identity. */
export function ehrId(seed: string): string {
  const h = createHash('sha256').update(`demo-ehr:${seed}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

import { addDays, dayAt, dayOf, DROP_IN_STEP_MINUTES, plusMinutes, type DemoClock } from './clock.js';
import { actionId, contactId, webBookingId } from './ids.js';
import { APPOINTMENTS, ENCOUNTERS, REGISTERED_BOOKINGS } from './appointment-data.js';
import type { AppointmentSpec } from './appointment-specs.js';
import type { DemoPerson } from './people.js';
import { STAFF, type StaffKey, type UnitKey } from './units.js';

/**
 * The demo's care contacts, planned as day offsets from today. Bookings, video meetings, care
 * contacts and journal notes all read this one plan, so a video booking has its meeting at the
 * same time and a journal note names the contact it was written at.
 */

export interface Contact {
  n: number;
  contactId: string;
  start: string;
  end: string | undefined;
  unit: UnitKey;
  staff: StaffKey;
  /** Upstream CareContact type code. */
  type: string;
  status: string;
  reason: string | undefined;
  /** contactSecrecyLevels; absent: Normal. */
  secrecy?: string;
  appointment?: AppointmentSpec & { actionId: string };
}

function slotOf(person: DemoPerson, n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > 99) throw new RangeError('n must be 1..99');
  return person.slotBase + n;
}

/**
 * When `person`'s drop-in starts: the clock's drop-in time, or the first step after it that is no other
 * booking's start, since one person is not booked twice at one time (at 07:10 in Stockholm Tolvan's
 * drop-in fell on his 08:00 visit, and the patient app showed two cards at 08:00).
 */
function dropInOf(person: DemoPerson, clock: DemoClock): string {
  const booked = new Set((APPOINTMENTS[person.id] ?? []).flatMap((spec) => (spec.time === undefined ? [] : [dayAt(clock, spec.day, spec.time)])));
  let start = clock.dropIn;
  while (booked.has(start)) start = plusMinutes(start, DROP_IN_STEP_MINUTES, clock.zone);
  return start;
}

export function appointmentsOf(person: DemoPerson, clock: DemoClock): Contact[] {
  const dropIn = dropInOf(person, clock);
  return (APPOINTMENTS[person.id] ?? []).map((spec) => {
    // The planned day names the ContactId even when the drop-in time rolls past midnight.
    const plannedDay = addDays(clock.today, spec.day);
    const start = spec.time === undefined ? dropIn : dayAt(clock, spec.day, spec.time);
    const slot = slotOf(person, spec.n);
    return {
      n: spec.n,
      contactId: contactId(plannedDay, slot),
      start,
      end: plusMinutes(start, spec.minutes, clock.zone),
      unit: spec.unit ?? STAFF[spec.staff].unit,
      staff: spec.staff,
      type: spec.video ? 'VIDEO' : 'BESOK',
      status: spec.day < 0 ? 'FINISHED' : 'PLANNED',
      reason: spec.service,
      appointment: { ...spec, actionId: actionId(plannedDay, slot) },
    };
  });
}

export function encountersOf(person: DemoPerson, clock: DemoClock): Contact[] {
  return (ENCOUNTERS[person.id] ?? []).map((spec) => {
    const day = dayOf(clock, spec.day);
    const start = dayAt(clock, day, spec.time);
    const end = spec.minutes === undefined ? undefined
      : plusMinutes(dayAt(clock, day + (spec.endDay ?? 0), spec.time), spec.minutes, clock.zone);
    return {
      n: spec.n,
      contactId: contactId(addDays(clock.today, day), slotOf(person, spec.n)),
      start, end,
      unit: spec.unit ?? STAFF[spec.staff].unit,
      staff: spec.staff, type: spec.type, status: spec.status, reason: spec.reason,
      ...(spec.secrecy === undefined ? {} : { secrecy: spec.secrecy }),
    };
  });
}

/** Every contact of the person, appointments first, in the plan's deliberately unsorted order. */
export function contactsOf(person: DemoPerson, clock: DemoClock): Contact[] {
  return [...appointmentsOf(person, clock), ...encountersOf(person, clock)];
}

export function registeredBookingsOf(person: DemoPerson, clock: DemoClock) {
  return (REGISTERED_BOOKINGS[person.id] ?? []).map((spec) => ({
    ...spec,
    bookingId: webBookingId(addDays(clock.today, spec.day), slotOf(person, spec.n)),
    start: dayAt(clock, spec.day, spec.time),
    unit: spec.unit ?? STAFF[spec.staff].unit,
  }));
}

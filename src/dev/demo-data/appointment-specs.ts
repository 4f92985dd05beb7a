/** How the demo data describes a person's bookings, care contacts and web bookings (appointment-data.ts). */
import type { StaffKey, UnitKey } from './units.js';

export interface AppointmentSpec {
  /** 1..99, unique per person; person.slotBase + n is the slot of the ContactId. */
  n: number;
  day: number;
  /** `hhmm`; absent means today's drop-in time (now + 45 min, rounded). */
  time?: string;
  minutes: number;
  staff: StaffKey;
  unit?: UnitKey;
  service: string;
  info?: string;
  price?: { price: string; reduction: string; reason?: string };
  video?: { others?: StaffKey[]; onPremise?: boolean };
  any?: Readonly<Record<string, string>>;
}

/** A contact that was never a booking (phone call, letter, admission...), for care contacts and notes. */
export interface EncounterSpec {
  n: number;
  /** Days from today, or 'dst': the latest daylight-saving change day (a DST trap). */
  day: number | 'dst';
  time: string;
  /** Absent for a contact without an end (a letter). */
  minutes?: number;
  endDay?: number;
  type: string;
  status: string;
  staff: StaffKey;
  unit?: UnitKey;
  /** '' writes an empty `<Reason/>`, which reads as absent. */
  reason?: string;
  /** contactSecrecyLevels; absent: Normal. */
  secrecy?: string;
}

export interface RegisteredBookingSpec {
  n: number; day: number; time: string;
  /** How long the visit is planned to be (FHIR needs an end beside a start; the legacy layout shows none). */
  minutes: number;
  staff: StaffKey; unit?: UnitKey; info: string; channel: string;
}

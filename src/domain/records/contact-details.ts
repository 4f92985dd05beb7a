/**
 * Masking for protected identities read by a client token (CONTRACT §2): the patient's own
 * addresses, phone numbers and e-mail addresses are emptied, and the population register's county,
 * city and district are left out, since they say where the person lives as much as an address does
 * (the v2 patient, built from addresses only, already shows none). Units' contact details are not
 * the patient's and stay. Inputs are never mutated.
 */
import type { ReadKind, ReadResults } from '../../ports/ehr-records.port.js';
import type { BookedAppointmentsResult } from './booking.js';
import type { PatientData, PatientRecord } from './patient-record.js';
import type { PatientV2 } from './patient-v2.js';

type Masks = { [P in ReadKind]: (data: ReadResults[P]) => ReadResults[P] };

const unchanged = <T>(data: T[]): T[] => data.slice();

function withoutRegisterLocation(patient: PatientData): PatientData {
  const { PatientDataRegister, ...rest } = patient;
  return rest;
}

const maskPatientRecords = (records: PatientRecord[]): PatientRecord[] => records.map((record) => ({
  ...record,
  PatientEHRExtract: record.PatientEHRExtract.map((extract) => (extract.Patient === undefined ? extract : {
    ...extract,
    Patient: {
      ...withoutRegisterLocation(extract.Patient),
      PhoneNumbers: { ...extract.Patient.PhoneNumbers, Phone: [] },
      EmailAddresses: { ...extract.Patient.EmailAddresses, Email: [] },
      PatientAddresses: { ...extract.Patient.PatientAddresses, PatientAddress: [] },
    },
  })),
}));

const maskBookings = (results: BookedAppointmentsResult[]): BookedAppointmentsResult[] => results.map((result) => (
  result.Patient === undefined ? result : { ...result, Patient: { ...result.Patient, Addresses: [], PhoneNumbers: [] } }
));

const MASKS: Masks = {
  patient: maskPatientRecords,
  bookings: maskBookings,
  // These documents carry no contact details of the patient.
  medications: unchanged,
  journalnotes: unchanged,
  videomeetings: unchanged,
  contacts: unchanged,
  attentionsignals: unchanged,
};

export function withoutContactDetails<K extends ReadKind>(kind: K, data: ReadResults[K]): ReadResults[K] {
  return (MASKS[kind] as (d: ReadResults[K]) => ReadResults[K])(data);
}

export function withoutContactDetailsV2(v: PatientV2): PatientV2 {
  return { ...v, addresses: [], phoneNumbers: [], emailAddresses: [] };
}

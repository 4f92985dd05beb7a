/**
 * Masking for protected identities read by a client token (docs/contract.md#token-kinds): the patient's own
 * addresses, phone numbers and e-mail addresses are emptied, and the population register's county,
 * city and district are left out, since they say where the person lives as much as an address does.
 * In patient v2 the relatives' addresses and phone numbers go too: they lead to the patient as well.
 * Units' contact details are not the patient's and stay; care contacts, attention signals, journal
 * notes, medications and video meetings carry none of the patient's. Inputs are never mutated.
 * Each read's policy (src/domain/operations) names its mask.
 */
import type { BookedAppointmentsResult } from '../../reads/appointments/answer.js';
import type { PatientData, PatientRecord } from '../../reads/patient/answer.js';
import type { PatientRelative, PatientV2, PatientV2Data } from '../../reads/patient-v2/answer.js';

function withoutRegisterLocation(patient: PatientData): PatientData {
  const { PatientDataRegister, ...rest } = patient;
  return rest;
}

export const maskPatientRecords = (records: PatientRecord[]): PatientRecord[] => records.map((record) => ({
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

function withoutWhereabouts(relative: PatientRelative): PatientRelative {
  const {
    patientRelativeHomePhonenumber, patientRelativeWorkPhonenumber, patientRelativeAddress, patientRelativeCOAddress,
    patientRelativeStreetAddress, patientRelativePostalCode, patientRelativeCity, ...rest
  } = relative;
  return rest;
}

function maskPatientV2Data(patient: PatientV2Data): PatientV2Data {
  const { patientDataRegister, ...rest } = patient;
  return {
    ...rest,
    patientAddresses: [],
    phoneNumbers: { ...patient.phoneNumbers, phone: [] },
    emailAddresses: { ...patient.emailAddresses, Email: [] },
    patientRelatives: { ...patient.patientRelatives, patientRelative: patient.patientRelatives.patientRelative.map(withoutWhereabouts) },
  };
}

export const maskPatientV2 = (items: PatientV2[]): PatientV2[] => items.map((item) => ({
  ...item,
  patientEHRExtract: item.patientEHRExtract.map((extract) => (extract.patient === undefined ? extract : {
    ...extract, patient: maskPatientV2Data(extract.patient),
  })),
}));

export const maskBookings = (results: BookedAppointmentsResult[]): BookedAppointmentsResult[] => results.map((result) => (
  result.Patient === undefined ? result : { ...result, Patient: { ...result.Patient, Addresses: [], PhoneNumbers: [] } }
));

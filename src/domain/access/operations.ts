import type { ReadKind } from '../../ports/ehr-records.port.js';

/** The ten operations of the spec and the patient's access log (CONTRACT §6), each with the scope it needs. */
export const OPERATIONS = {
  registerPayment: { scope: 'user/Payment-write' },
  changeAppointment: { scope: 'user/Appointment-write' },
  getAppointments: { scope: 'user/Appointment-read', kind: 'bookings' },
  getPatient: { scope: 'user/Patient-read', kind: 'patient' },
  getPatientV2: { scope: 'user/Patient-read', kind: 'patient-v2' },
  getContacts: { scope: 'user/Contact-read', kind: 'contacts' },
  getAttentionSignals: { scope: 'user/AttentionSignal-read', kind: 'attentionsignals' },
  getVideoMeetings: { scope: 'user/VideoMeeting-read', kind: 'videomeetings' },
  getMedications: { scope: 'user/MedicationPrescription-read', kind: 'medications' },
  getJournalNotes: { scope: 'user/JournalNote-read', kind: 'journalnotes' },
  getAccessLog: { scope: 'user/AccessLog-read' },
} as const satisfies Record<string, { scope: string; kind?: ReadKind }>;

export type OperationName = keyof typeof OPERATIONS;

/** True for the operations that change patient data (their scope is a write scope). */
export const changesPatientData = (operation: string): boolean =>
  Object.hasOwn(OPERATIONS, operation) && OPERATIONS[operation as OperationName].scope.endsWith('-write');

import type { OperationName } from '../../domain/access/operations.js';

/** How the OpenAPI document groups operations; the vendor's own paths have a group of their own. */
export const TAGS = [
  { name: 'Appointments', description: 'Booked appointments: read them, and check a patient in when they arrive.' },
  { name: 'Payments', description: 'Register that an arrived appointment has been paid.' },
  { name: 'Patient', description: "The patient's demographic information." },
  { name: 'Care contacts', description: 'Visits and other care contacts, past and planned.' },
  { name: 'Attention signals', description: 'Warnings a care giver must know about: allergies, infections, treatments that matter for safety.' },
  { name: 'Video meetings', description: 'Booked appointments the patient can join by video.' },
  { name: 'Medications', description: 'Prescribed medications.' },
  { name: 'Journal notes', description: "Notes from the patient's medical record." },
  { name: 'Access log', description: "Who has accessed the patient's data: the patient's right under PDL 8 kap. 5 §." },
  {
    name: 'Vendor paths',
    description: "The same operations at the paths of the EHR vendor's own API (Cambio Open Services), so a client written "
      + 'for the vendor works unchanged. Each one needs the same scope, answers the same body and errors, and is audited '
      + 'under the same operation name as the path it stands for.',
  },
] as const;

export type TagName = typeof TAGS[number]['name'];
export const VENDOR_TAG: TagName = 'Vendor paths';

interface OperationDoc {
  tag: TagName;
  summary: string;
  description: string;
}

const WHO = 'The answer is about the logged-in person, or with the `patient` header about a patient they act for '
  + '(as guardian, with power of attorney or as partner); a client token (kiosk, integration) must name the patient in that header.';
const INTERVAL = 'Limit it to an interval with `fromDateTime` and `toDateTime` (both optional and inclusive).';
const EMPTY = 'An empty array means there is nothing to show in that interval.';

/** The spec's operations, each documented here (operation 5 shares operation 4's path and entry). */
export type DocumentedOperation = Exclude<Extract<OperationName, 'registerPayment' | 'changeAppointment' | 'getAppointments' | 'getPatient'
  | 'getContacts' | 'getAttentionSignals' | 'getVideoMeetings' | 'getMedications' | 'getJournalNotes' | 'getAccessLog'>, never>;

/** What a client developer reads about each operation; the scope it needs is stated by the security requirement. */
const DOCS: Record<DocumentedOperation, OperationDoc> = {
  registerPayment: {
    tag: 'Payments',
    summary: 'Register that an appointment is paid',
    description: 'Marks the visit of an appointment as `PAID`, by cash, card or invoice. The appointment must already be marked as arrived. '
      + 'The outcome is in the answer, not in the status code: `OK` when the payment was registered, `INFO` when it already was '
      + '(repeating the call is harmless), `ERROR` with a comment when it cannot be done (unknown appointment, not arrived yet, cancelled). '
      + WHO,
  },
  changeAppointment: {
    tag: 'Appointments',
    summary: 'Check a patient in (mark an appointment as arrived)',
    description: 'Marks a booked appointment as `arrived`, from 120 minutes before its start until 30 minutes after it. '
      + 'The outcome is in the answer: `OK` when it changed, `INFO` when it already was so, `ERROR` with a comment when it cannot be done. '
      + WHO,
  },
  getAppointments: {
    tag: 'Appointments',
    summary: 'List booked appointments',
    description: `The patient's booked appointments, oldest first, each with its time, care unit and \`ContactId\` (the id that check-in and payment take). ${INTERVAL} ${EMPTY} ${WHO}`,
  },
  getPatient: {
    tag: 'Patient',
    summary: "Read the patient's information",
    description: 'Name, addresses, phone numbers and other demographic information. Without `api-version` the answer is the older '
      + 'layout (an array of PatientRecord); with `api-version=v2` it is the v2 layout. Addresses and phone numbers of a patient '
      + `with protected identity are left out when a client token asks. ${WHO}`,
  },
  getContacts: {
    tag: 'Care contacts',
    summary: 'List care contacts',
    description: `Visits and other care contacts, oldest first, filtered on their start time. ${INTERVAL} ${EMPTY} ${WHO} `
      + 'Errors come in the `{error, path, status, timestamp}` shape.',
  },
  getAttentionSignals: {
    tag: 'Attention signals',
    summary: 'List attention signals',
    description: `Allergies, infections and other warnings, oldest first, filtered on when they were registered. ${INTERVAL} ${EMPTY} ${WHO} `
      + 'Errors come in the `{error, path, status, timestamp}` shape.',
  },
  getVideoMeetings: {
    tag: 'Video meetings',
    summary: 'List video meetings',
    description: `Appointments the patient can join by video, with the link to join; at most 64, the earliest first. ${INTERVAL} ${EMPTY} ${WHO} `
      + 'Errors come in the `{error, path, status, timestamp}` shape.',
  },
  getMedications: {
    tag: 'Medications',
    summary: 'List prescribed medications',
    description: `Prescriptions with product, dosage and prescriber, oldest first, filtered on when they were registered. ${INTERVAL} ${EMPTY} ${WHO}`,
  },
  getJournalNotes: {
    tag: 'Journal notes',
    summary: 'List journal notes',
    description: `Notes from the medical record with their text, oldest first, filtered on when they were written. ${INTERVAL} ${EMPTY} ${WHO}`,
  },
  getAccessLog: {
    tag: 'Access log',
    summary: "Read who has accessed the patient's data",
    description: 'Every recorded request about the patient, oldest first: when, which operation (with Swedish and English names), '
      + 'what came of it, on what basis (the patient, a guardian, a representative, a partner or a care provider\'s system), the '
      + 'application and the request id; refused and failed requests too. A guardian\'s, representative\'s or partner\'s identity '
      + 'number is shown only to that person and to the patient; a refused person is shown as refused, without a number. '
      + `Pages of \`limit\` entries (1-500, default 100); the next page's URL is in the \`Link: <...>; rel="next"\` header, absent on the last page. ${INTERVAL} `
      + `Reading the log is itself recorded. With \`Accept: application/fhir+json\` the page is a FHIR Bundle of AuditEvents (IHE BALP). ${WHO}`,
  },
};

/** The documentation fields of a route's schema: operationId, tags, summary, description. */
export function documented(operation: DocumentedOperation | 'getPatientV2'): { operationId: string; tags: string[]; summary: string; description: string } {
  // Operations 4 and 5 are one path, told apart by api-version: one entry in the document.
  const id = operation === 'getPatientV2' ? 'getPatient' : operation;
  const doc = DOCS[id];
  return { operationId: id, tags: [doc.tag], summary: doc.summary, description: doc.description };
}

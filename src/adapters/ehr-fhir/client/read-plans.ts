/**
 * Each read of patient records over FHIR, in one table (docs/upstream-fhir.md#0-at-a-glance): the
 * searches it sends (beyond the patient lookup), the references its mapping follows, and the
 * mapper. Time bounds are widened by an hour on each side and sent in UTC; the exact selection
 * is made again on the mapped answer, as for every EHR.
 */
import type { ReadItem, ReadName } from '../../../domain/operations/table.js';
import { compactToEpochMs, epochMsToUtcIso } from '../../../domain/time/local-time.js';
import type { TimeRange } from '../../../domain/time/time-range.js';
import { mapAppointments } from '../appointments.js';
import { mapAttentionSignals } from '../attention-signals.js';
import { mapCareContacts } from '../care-contacts.js';
import { mapDiagnoses } from '../diagnoses.js';
import { mapJournalNotes } from '../journal-notes.js';
import { mapLabResults } from '../lab-results.js';
import type { MapContext } from '../map-context.js';
import { mapMedications } from '../medications.js';
import { mapPatientRecord } from '../patient-record.js';
import { mapPatientV2 } from '../patient-v2.js';
import type { ReadInput } from '../read-input.js';
import type { ResourceType } from '../schemas/index.js';
import { mapVideoMeetings } from '../video-meetings.js';
import {
  APPOINTMENT_FOLLOWS, CONTACT_FOLLOWS, DIAGNOSIS_FOLLOWS, LAB_FOLLOWS, MEDICATION_FOLLOWS, NOTE_FOLLOWS, PATIENT_FOLLOWS,
  SIGNAL_FOLLOWS,
} from './follow-rules.js';
import type { FollowRules } from './reference-resolution.js';
import type { SearchParams } from './search-url.js';

const HOUR_MS = 3_600_000;

export interface SearchPlan {
  type: ResourceType;
  params(patientId: string, range: TimeRange, zone: string): SearchParams;
}

/**
 * Resources that name the matches, asked for by `_revinclude`; read with a search of their own when
 * the server sent none of them (it ignores `_revinclude`, as Medplum 4 does).
 */
export interface ReversePlan {
  type: ResourceType;
  /** The search parameter of `type` that names a match (`Condition/<id>`). */
  param: string;
}

export interface ReadPlan<R extends ReadName> {
  searches: readonly SearchPlan[];
  reverse?: ReversePlan;
  follows: FollowRules;
  map(input: ReadInput, ctx: MapContext): ReadItem<R>[];
}

/** `name=ge…&name=le…` in UTC, an hour wider on each side than the 14-digit bounds (either may be absent). */
export function timeBounds(name: string, range: TimeRange, zone: string): SearchParams {
  const bound = (compact: string, shift: number) => epochMsToUtcIso(compactToEpochMs(compact, zone) + shift);
  return [
    ...(range.from === undefined ? [] : [[name, `ge${bound(range.from, -HOUR_MS)}`] as const]),
    ...(range.to === undefined ? [] : [[name, `le${bound(range.to, HOUR_MS)}`] as const]),
  ];
}

const includes = (...names: string[]): SearchParams => names.map((n) => [n.startsWith('iterate ') ? '_include:iterate' : '_include', n.replace('iterate ', '')]);

const APPOINTMENT_INCLUDES = includes('Appointment:actor', 'iterate Location:organization', 'iterate HealthcareService:organization',
  'iterate PractitionerRole:organization', 'iterate PractitionerRole:practitioner');

const appointments = (statuses: string): SearchPlan => ({
  type: 'Appointment',
  params: (id, range, zone) => [['patient', `Patient/${id}`], ...timeBounds('date', range, zone), ['status', statuses], ...APPOINTMENT_INCLUDES],
});

/** A search by patient and time with includes. */
const byPatient = (type: ResourceType, timeParam: string, more: SearchParams): SearchPlan => ({
  type,
  params: (id, range, zone) => [['patient', `Patient/${id}`], ...timeBounds(timeParam, range, zone), ...more],
});

/** The reads this adapter serves (the composition root refuses a read without a source). */
export const READ_PLANS: { readonly [R in ReadName]?: ReadPlan<R> } = {
  getAppointments: {
    searches: [appointments('booked,arrived,checked-in,fulfilled,proposed,pending,waitlist')], follows: APPOINTMENT_FOLLOWS, map: mapAppointments,
  },
  getPatient: { searches: [], follows: PATIENT_FOLLOWS, map: mapPatientRecord },
  getPatientV2: {
    searches: [{ type: 'RelatedPerson', params: (id) => [['patient', `Patient/${id}`], ['active', 'true']] }],
    follows: PATIENT_FOLLOWS,
    map: mapPatientV2,
  },
  getContacts: {
    searches: [byPatient('Encounter', 'date', [...includes('Encounter:service-provider', 'Encounter:participant', 'Encounter:location',
      'iterate PractitionerRole:practitioner', 'iterate PractitionerRole:organization', 'iterate Organization:partof')])],
    follows: CONTACT_FOLLOWS,
    map: mapCareContacts,
  },
  getAttentionSignals: {
    searches: [
      byPatient('AllergyIntolerance', 'date', includes('AllergyIntolerance:recorder', 'AllergyIntolerance:asserter')),
      byPatient('Flag', 'date', includes('Flag:author')),
    ],
    follows: SIGNAL_FOLLOWS,
    map: mapAttentionSignals,
  },
  getVideoMeetings: { searches: [appointments('booked,arrived,checked-in')], follows: APPOINTMENT_FOLLOWS, map: mapVideoMeetings },
  getMedications: {
    searches: [byPatient('MedicationRequest', 'authoredon', includes('MedicationRequest:medication', 'MedicationRequest:requester',
      'MedicationRequest:encounter', 'iterate PractitionerRole:organization', 'iterate Organization:partof'))],
    follows: MEDICATION_FOLLOWS,
    map: mapMedications,
  },
  getJournalNotes: {
    searches: [byPatient('Composition', 'date', includes('Composition:author', 'Composition:attester', 'Composition:encounter',
      'Composition:entry', 'iterate Encounter:service-provider'))],
    follows: NOTE_FOLLOWS,
    map: mapJournalNotes,
  },
  getLabResults: {
    searches: [byPatient('DiagnosticReport', 'issued', [['category', 'http://terminology.hl7.org/CodeSystem/v2-0074|LAB'],
      ...includes('DiagnosticReport:result', 'DiagnosticReport:performer', 'DiagnosticReport:encounter',
        'iterate Observation:performer', 'iterate Organization:partof')])],
    follows: LAB_FOLLOWS,
    map: mapLabResults,
  },
  getDiagnoses: {
    searches: [byPatient('Condition', 'recorded-date', [...includes('Condition:asserter', 'Condition:encounter',
      'iterate Encounter:service-provider', 'iterate Organization:partof'), ['_revinclude', 'Procedure:reason-reference']])],
    reverse: { type: 'Procedure', param: 'reason-reference' },
    follows: DIAGNOSIS_FOLLOWS,
    map: mapDiagnoses,
  },
};

/**
 * What a person can ask to be told of (docs/notifications.md#topics): each topic once, with the FHIR
 * type a subscription filters and an event's focus names, where its changes come from (the reads whose
 * records are looked at, or a feed the service keeps: its access log, its grants), and what the
 * patient's access log says of an app that subscribes, stops, or is told. Everything else about topics
 * (canonical URLs, the CapabilityStatement's list, the audit's operation names) is derived from here.
 */
import type { DisplayName } from '../operations/operation.js';
import type { ReadName } from '../operations/table.js';

/** The service's own feeds: new entries of the patient's access log, and the events of sharing grants. */
export type FeedName = 'access' | 'proxy';

interface TopicBase {
  /** The FHIR type of the filter (`<type>?patient=<id>`) and of each event's focus. */
  type: string;
  /** What an app is told, in words a patient reads after "An app is told" / "En app får besked". */
  told: DisplayName;
}

/** A topic whose changes are found by looking at the records of its reads. */
export interface RecordTopic extends TopicBase {
  reads: readonly ReadName[];
}

/** A topic whose changes the service records itself, as they happen. */
export interface FeedTopic extends TopicBase {
  feed: FeedName;
}

export type Topic = RecordTopic | FeedTopic;

export const TOPICS = {
  appointment: {
    type: 'Appointment', reads: ['getAppointments', 'getVideoMeetings'],
    told: { sv: 'om nya, flyttade och ändrade besök', en: 'of new, moved and changed appointments' },
  },
  'lab-result': {
    type: 'DiagnosticReport', reads: ['getLabResults'],
    told: { sv: 'om nya och ändrade provsvar', en: 'of new and changed lab results' },
  },
  'journal-note': {
    type: 'Composition', reads: ['getJournalNotes'],
    told: { sv: 'om nya och ändrade journalanteckningar', en: 'of new and changed journal notes' },
  },
  medication: {
    type: 'MedicationRequest', reads: ['getMedications'],
    told: { sv: 'om nya och ändrade läkemedel', en: 'of new and changed medications' },
  },
  diagnosis: {
    type: 'Condition', reads: ['getDiagnoses'],
    told: { sv: 'om nya och ändrade diagnoser', en: 'of new and changed diagnoses' },
  },
  access: {
    type: 'AuditEvent', feed: 'access',
    told: { sv: 'när någon annan läser eller ändrar i journalen', en: 'when someone else reads or changes the record' },
  },
  proxy: {
    type: 'Consent', feed: 'proxy',
    told: { sv: 'om delning av journalen', en: 'of sharing of the record' },
  },
} as const satisfies Record<string, Topic>;

export type TopicName = keyof typeof TOPICS;

export const TOPIC_NAMES = Object.keys(TOPICS) as TopicName[];

export const isTopicName = (name: string): name is TopicName => Object.hasOwn(TOPICS, name);

export const topicOf = (name: TopicName): Topic => TOPICS[name];

/** The reads a record topic looks at; none for a feed topic. */
export const readsOfTopic = (name: TopicName): readonly ReadName[] => {
  const topic: Topic = TOPICS[name];
  return 'reads' in topic ? topic.reads : [];
};

/** The feed a feed topic follows; undefined for a record topic. */
export const feedOfTopic = (name: TopicName): FeedName | undefined => {
  const topic: Topic = TOPICS[name];
  return 'feed' in topic ? topic.feed : undefined;
};

/** The topics a region offers: every one, but `proxy` only while sharing is on (PROXY_GRANTS). */
export const offeredTopics = (sharing: boolean): ReadonlySet<TopicName> => new Set(TOPIC_NAMES.filter((t) => sharing || feedOfTopic(t) !== 'proxy'));

/**
 * What the notification engine itself puts in the audit trail, and so in the patient's access log
 * (docs/notifications.md#audited-and-shown): an app told of a change (as the app learning of that
 * record, in the subscriber's name and on their basis), and a subscription the service ended because
 * its right was lost, its app's grant revoked, its end reached, or its deliveries kept failing.
 * Stored before the notification goes, or before the subscription is ended: with the audit store down,
 * nothing is sent and nothing is changed.
 */
import type { OutcomeRecord } from '../../ports/audit-trail.port.js';
import type { AccessBasis } from '../access/relationship.js';
import { subscriptionOperation } from '../operations/subscription-operations.js';
import type { StoredSubscription } from './subscription.js';

/** Who acts when time or the service ends a subscription: no person and no request. */
export const NOTIFICATIONS_ACTOR = { issuer: 'urn:pdas:service', subject: 'notifications' } as const;

/** What a record needs that the domain cannot make: the time and a new request id. */
export interface RecordFacts {
  nowMs: number;
  requestId: string;
}

/** The record of a notification of events, before it is sent: the subscriber learning of the patient's record. */
export function notifiedRecord(s: StoredSubscription, basis: AccessBasis, facts: RecordFacts): OutcomeRecord {
  const { issuer, subject, personId, clientId } = s.subscriber;
  return {
    time: new Date(facts.nowMs).toISOString(), requestId: facts.requestId, serviceRequestId: facts.requestId,
    operation: subscriptionOperation('notify', s.topic), actor: { issuer, subject, personId }, clientId,
    patientId: s.patient, delegation: basis, sourceAddress: '', outcome: 'allowed', status: 200,
  };
}

/** The record of a subscription the service ends, in the patient's log under its app. */
export function endedRecord(s: StoredSubscription, facts: RecordFacts): OutcomeRecord {
  return {
    time: new Date(facts.nowMs).toISOString(), requestId: facts.requestId, serviceRequestId: facts.requestId,
    operation: subscriptionOperation('unsubscribe', s.topic), actor: { ...NOTIFICATIONS_ACTOR }, clientId: s.subscriber.clientId,
    patientId: s.patient, delegation: 'service', sourceAddress: '', outcome: 'allowed', status: 200,
  };
}

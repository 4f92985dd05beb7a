/**
 * The access log as FHIR AuditEvents, for notifications: an app subscribing creates a Subscription
 * (C, create), stopping deletes or ends one (D, delete), being told is the service's sending (E, no
 * RESTful interaction), and looking at a subscription is a read (E, search); none of them changes the
 * patient's record. Failed before: every one was action E, subtype search.
 */
import { describe, expect, it } from 'vitest';
import type { AccessLogEntry } from '../../src/domain/access-log/access-log-entry.js';
import { SUBSCRIPTION_OPERATIONS, subscriptionOperation } from '../../src/domain/operations/subscription-operations.js';
import { changesPatientData } from '../../src/domain/operations/table.js';
import { TOPIC_NAMES } from '../../src/domain/notifications/topics.js';
import { auditEvent } from '../../src/http/access-log/fhir-audit-event.js';

const PATIENT = '191212121212';

const entryOf = (operation: string): AccessLogEntry => ({
  time: '20261126120000', timeInUnix: 1_795_694_400_000, operation,
  operationDisplayName: { sv: 'x', en: 'x' }, outcome: 'allowed', basis: 'self',
  clientApplication: { displayName: 'Vårdappen', clientId: 'patient-app' }, requestId: '0b6f3c1e-5d0a-4a57-9d0e-2f8f1c7a9b42',
});

const shown = (operation: string): [string, string, string | undefined, boolean] => {
  const event = auditEvent(entryOf(operation), PATIENT) as { action: string; subtype: Array<{ system: string; code: string }> };
  const rest = event.subtype.find((s) => s.system === 'http://hl7.org/fhir/restful-interaction');
  return [operation, event.action, rest?.code, changesPatientData(operation)];
};

describe('notifications in the FHIR access log: each step as what it is', () => {
  it.each(TOPIC_NAMES)('%s: subscribe C create, unsubscribe D delete, notify E without an interaction', (topic) => {
    expect(shown(subscriptionOperation('subscribe', topic))).toEqual([subscriptionOperation('subscribe', topic), 'C', 'create', false]);
    expect(shown(subscriptionOperation('unsubscribe', topic))).toEqual([subscriptionOperation('unsubscribe', topic), 'D', 'delete', false]);
    expect(shown(subscriptionOperation('notify', topic))).toEqual([subscriptionOperation('notify', topic), 'E', undefined, false]);
  });

  it('an ask refused before its topic was known as what was asked; looking as a read; every notifications operation covered', () => {
    expect(shown('createSubscription')).toEqual(['createSubscription', 'C', 'create', false]);
    expect(shown('deleteSubscription')).toEqual(['deleteSubscription', 'D', 'delete', false]);
    for (const look of ['readSubscription', 'searchSubscriptions', 'getSubscriptionStatus', 'getSubscriptionEvents']) {
      expect(shown(look)).toEqual([look, 'E', 'search', false]);
    }
    const covered = [...SUBSCRIPTION_OPERATIONS.keys()].filter((name) => shown(name)[1] !== undefined);
    expect(covered).toHaveLength(SUBSCRIPTION_OPERATIONS.size);
  });
});

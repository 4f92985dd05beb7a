/**
 * docs/fhir-api.md#subscriptions: creating or ending a subscription, an app told of a change and an
 * app looking at its subscriptions appear in the patient's access log in words, in Swedish and
 * English ("An app is told of new and changed lab results"), and the patient app knows each name.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { operationDisplayName } from '../../../src/domain/access-log/display-names.js';
import type { AuditedOperation } from '../../../src/domain/operations/fhir-operations.js';
import { SUBSCRIPTION_OPERATIONS, subscriptionOperation } from '../../../src/domain/operations/subscription-operations.js';
import { TOPIC_NAMES } from '../../../src/domain/notifications/topics.js';
import { OPERATION_NAMES } from '../../../scripts/app-names/names.js';

const UNKNOWN = operationDisplayName('no-such-operation');

describe('the access log\'s names of notifications', () => {
  it('names each step of each topic, each look and each refused ask, in both languages and apart from each other', () => {
    const names = [...TOPIC_NAMES.flatMap((t) => (['subscribe', 'unsubscribe', 'notify'] as const).map((step) => subscriptionOperation(step, t))),
      'readSubscription', 'searchSubscriptions', 'getSubscriptionStatus', 'getSubscriptionEvents', 'createSubscription', 'deleteSubscription'];
    expect([...SUBSCRIPTION_OPERATIONS.keys()].sort()).toEqual([...names].sort());
    const seen = new Set<string>();
    for (const name of names) {
      const shown = operationDisplayName(name);
      expect([name, shown === UNKNOWN || shown.sv === UNKNOWN.sv || shown.en === UNKNOWN.en]).toEqual([name, false]);
      expect([name, seen.has(shown.sv), seen.has(shown.en)]).toEqual([name, false, false]);
      seen.add(shown.sv).add(shown.en);
      expect([name, OPERATION_NAMES[name]]).toEqual([name, { sv: shown.sv, en: shown.en }]);
    }
    expect(operationDisplayName('subscribeLabResult')).toEqual({ sv: 'En app får besked om nya och ändrade provsvar', en: 'An app is told of new and changed lab results' });
  });

  it('types every name as an audited operation, and nothing else', () => {
    expect(subscriptionOperation('unsubscribe', 'journal-note')).toBe('unsubscribeJournalNote');
    expectTypeOf(subscriptionOperation('subscribe', 'lab-result')).toMatchTypeOf<AuditedOperation>();
    expectTypeOf<'subscribeLabResult' | 'notifyProxy' | 'readSubscription' | 'createSubscription'>().toMatchTypeOf<AuditedOperation>();
    expectTypeOf<'subscribeLabResults'>().not.toMatchTypeOf<AuditedOperation>();
  });
});

/**
 * docs/fhir-api.md#subscriptions: which scopes reach a person's Subscriptions. Creating needs `c`
 * (v1 `write`), deleting `c` or `d`, reading by id (and `$status`, `$events`) `r`, listing `s`, v1
 * `read` both; `patient/` forms only in the `patient` context, and a wildcard never: Subscription must
 * be named.
 */
import { describe, expect, it } from 'vitest';
import { isSubscriptionScope, subscriptionAllows, subscriptionScopeFor, type SubscriptionInteraction } from '../../../src/domain/fhir/subscription-scopes.js';
import { consentAllows, isConsentScope } from '../../../src/domain/fhir/consent-scopes.js';

const ALL: readonly SubscriptionInteraction[] = ['read', 'search', 'create', 'delete'];
const allowed = (scope: string, contexts: ('patient' | 'user')[] = ['patient', 'user']): SubscriptionInteraction[] =>
  ALL.filter((i) => subscriptionAllows([scope], i, contexts));

describe('Subscription scopes', () => {
  it('grant what each permission letter and v1 permission names', () => {
    expect(allowed('patient/Subscription.c')).toEqual(['create', 'delete']);
    expect(allowed('patient/Subscription.d')).toEqual(['delete']);
    expect(allowed('patient/Subscription.cud')).toEqual(['create', 'delete']);
    expect(allowed('patient/Subscription.rs')).toEqual(['read', 'search']);
    expect(allowed('patient/Subscription.r')).toEqual(['read']);
    expect(allowed('user/Subscription.read')).toEqual(['read', 'search']);
    expect(allowed('user/Subscription.write')).toEqual(['create', 'delete']);
    expect(allowed('user/Subscription.*')).toEqual(ALL);
    expect(allowed('user/Subscription.cruds')).toEqual(ALL);
  });

  it('never count a wildcard, another type, a system scope or a malformed permission', () => {
    for (const scope of ['patient/*.read', 'user/*.cruds', 'patient/*.*', 'system/Subscription.cruds', 'patient/Subscriptions.c', 'patient/Subscription.sr', 'patient/Subscription.', 'patient/Subscription.write?x=1']) {
      expect([scope, allowed(scope)]).toEqual([scope, []]);
    }
  });

  it('count a patient/ scope only where the launch patient is reached, a user/ one for anyone the person may act for', () => {
    expect(allowed('patient/Subscription.c', ['user'])).toEqual([]);
    expect(allowed('user/Subscription.write', ['user'])).toEqual(['create', 'delete']);
    expect(allowed('user/Subscription.write', ['patient'])).toEqual([]);
  });

  it('name the scope to ask for in the context that reaches the patient', () => {
    expect(subscriptionScopeFor('create', ['patient', 'user'])).toBe('patient/Subscription.c');
    expect(subscriptionScopeFor('delete', ['user'])).toBe('user/Subscription.c');
    expect(subscriptionScopeFor('search', ['patient', 'user'])).toBe('patient/Subscription.s');
  });

  it('are scopes a person may be granted; one that allows nothing is not', () => {
    expect(['patient/Subscription.c', 'user/Subscription.read', 'patient/Subscription.rs'].map(isSubscriptionScope)).toEqual([true, true, true]);
    expect(['patient/Subscription.u', 'system/Subscription.c', 'patient/*.c'].map(isSubscriptionScope)).toEqual([false, false, false]);
  });

  it('leave the Consent scopes as they were: named, with the COS door\'s sharing scopes in the user context', () => {
    expect(consentAllows(['user/Proxy-write'], 'create', ['user'])).toBe(true);
    expect(consentAllows(['user/Proxy-write'], 'create', ['patient'])).toBe(false);
    expect(consentAllows(['patient/Consent.cud'], 'delete', ['patient'])).toBe(true);
    expect(consentAllows(['patient/*.cruds'], 'read', ['patient'])).toBe(false);
    expect(isConsentScope('patient/Consent.u')).toBe(false);
    expect(isConsentScope('user/Subscription.write')).toBe(false);
  });
});

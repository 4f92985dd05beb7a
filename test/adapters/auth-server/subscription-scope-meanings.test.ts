/**
 * docs/fhir-api.md#subscriptions: the service's own authorization server grants the Subscription
 * scopes SMART discovery lists, and the consent page says what they give an app in words, in Swedish
 * and English: being told of changes, never "Subscription resources".
 */
import { describe, expect, it } from 'vitest';
import { scopeMeaning, scopeReach } from '../../../src/adapters/auth-server/scope-meanings.js';
import { isPersonScope } from '../../../src/adapters/auth-server/smart-launch.js';
import { SUBSCRIPTION_SCOPES } from '../../../src/domain/fhir/subscription-scopes.js';

describe('the Subscription scopes on the consent page', () => {
  it('say that the app is told of changes, and may look at what it is told of', () => {
    expect(scopeMeaning('patient/Subscription.c')).toBe('Have its server told when something changes in the record, and stop that');
    expect(scopeMeaning('user/Subscription.write', 'sv')).toBe('Låta dess server få besked när något ändras i journalen, och sluta med det');
    expect(scopeMeaning('patient/Subscription.rs')).toBe('See what its server is told of, and how its notifications get through');
    expect(scopeMeaning('user/Subscription.read', 'sv')).toBe('Se vad dess server får besked om, och hur beskeden går fram');
    expect(scopeMeaning('patient/Subscription.crds')).toContain('; have its server told when something changes');
  });

  it('reach whom the context reaches, as a read does: the person picked, or everyone the person may act for', () => {
    expect(scopeReach('patient/Subscription.c')).toBe('picked');
    expect(scopeReach('user/Subscription.write')).toBe('everyone');
    // A grant's Consents stay the signed-in person's own, whoever is picked.
    expect(scopeReach('patient/Consent.rs')).toBe('none');
  });

  it('are scopes a person may be granted, every one discovery lists; one that allows nothing is not', () => {
    for (const scope of SUBSCRIPTION_SCOPES) expect([scope, isPersonScope(scope, new Set())]).toEqual([scope, true]);
    expect(isPersonScope('patient/Subscription.u', new Set())).toBe(false);
    expect(isPersonScope('system/Subscription.c', new Set())).toBe(false);
  });
});

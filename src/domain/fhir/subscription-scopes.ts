/**
 * The scopes that reach a person's Subscriptions (docs/fhir-api.md#subscriptions):
 * `patient/Subscription.c` (v2) or `user/Subscription.write` (v1) create one, and `.d` (or `.c`, or
 * v1 `.write`) delete it; `.r` reads one by id and asks for its `$status` and `$events`, `.s` lists
 * them, v1 `.read` both. Subscription must be named: a wildcard (`patient/*.read`) an app asked for to
 * read a record does not hand it a channel that sends word of every change to an endpoint.
 */
import { namedScopeAllows, type NamedPermission, type ScopeContext } from './smart-scopes.js';

/** What is done with a Subscription: `read` covers a read by id, `$status` and `$events`. */
export type SubscriptionInteraction = 'read' | 'search' | 'create' | 'delete';

const NEEDS: Readonly<Record<SubscriptionInteraction, NamedPermission>> = {
  read: { letters: 'r', v1: 'read' }, search: { letters: 's', v1: 'read' }, create: { letters: 'c', v1: 'write' }, delete: { letters: 'cd', v1: 'write' },
};

/** Whether `scopes` allow `interaction` on Subscription in one of `contexts`. */
export const subscriptionAllows = (scopes: Iterable<string>, interaction: SubscriptionInteraction, contexts: readonly ScopeContext[]): boolean =>
  namedScopeAllows(scopes, 'Subscription', NEEDS[interaction], contexts);

/** The scope to ask for, named in a refusal: the `patient/` form where the launch patient is reached, else the `user/` one. */
export function subscriptionScopeFor(interaction: SubscriptionInteraction, contexts: readonly ScopeContext[]): string {
  const context = contexts.includes('patient') ? 'patient' : 'user';
  const letter = NEEDS[interaction].letters.charAt(0);
  return `${context}/Subscription.${letter}`;
}

/** Every Subscription scope SMART discovery lists when subscriptions are on. */
export const SUBSCRIPTION_SCOPES: readonly string[] = ['patient/Subscription.rs', 'patient/Subscription.cd', 'user/Subscription.read', 'user/Subscription.write'];

const SCOPE = /^(patient|user)\/Subscription\.([a-z*]+)$/;

/** A person's scope on Subscription, which an authorization server may grant a SMART app. */
export const isSubscriptionScope = (scope: string): boolean =>
  SCOPE.test(scope) && (['read', 'search', 'create', 'delete'] as const).some((i) => subscriptionAllows([scope], i, ['patient', 'user']));

/**
 * The endpoint rules of each app (docs/notifications.md): its own prefixes, as the authorization
 * server registers it (the clients file's `notification_endpoints`, the demo patient app's loopback
 * ones), then SUBSCRIPTION_ENDPOINTS, which every app may use. An app is known by its `client_id` (or
 * `azp`); one registered nowhere (another issuer's) has SUBSCRIPTION_ENDPOINTS alone. Made once per app.
 */
import type { AuthClient } from '../adapters/auth-server/clients.js';
import { EndpointRules, prefixProblem } from '../domain/notifications/endpoint-rules.js';
import type { SubscriptionSettings } from './subscription-settings.js';

export type EndpointRulesOf = (clientId: string | undefined) => EndpointRules;

export function endpointRulesOf(
  settings: Pick<SubscriptionSettings, 'endpoints' | 'allowLoopback'>,
  clients: ReadonlyArray<Pick<AuthClient, 'metadata' | 'notificationEndpoints'>>,
): EndpointRulesOf {
  const { endpoints, allowLoopback } = settings;
  // The clients file's were held to SUBSCRIPTION_ALLOW_LOOPBACK at start; the demo's loopback ones
  // are left out when it is false, as no loopback endpoint could be allowed anyway.
  const usable = (prefixes: readonly string[]) => prefixes.filter((prefix) => prefixProblem(prefix, allowLoopback) === undefined);
  const registered = new Map(clients.map((c) => [c.metadata.client_id, usable(c.notificationEndpoints ?? [])] as const));
  const shared = new EndpointRules(endpoints, allowLoopback);
  const made = new Map<string, EndpointRules>();
  return (clientId) => {
    const own = clientId === undefined ? undefined : registered.get(clientId);
    if (clientId === undefined || own === undefined || own.length === 0) return shared;
    let rules = made.get(clientId);
    if (rules === undefined) {
      rules = new EndpointRules([...own, ...endpoints], allowLoopback);
      made.set(clientId, rules);
    }
    return rules;
  };
}

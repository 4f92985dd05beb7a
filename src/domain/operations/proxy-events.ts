/**
 * What time does to a proxy grant, which the grantor's access log must show (docs/proxies.md#audited-and-shown):
 * an invitation nobody accepted in time lapses, a grant past its end expires. Neither is a request of
 * the API, so neither has a path or a scope: they are kept beside the operation table, as the
 * authorization server's grants are (grant-operations.ts), and the access log's names follow from here.
 */
import type { DisplayName } from './operation.js';

export const PROXY_EVENTS = {
  expireProxy: { displayName: { sv: 'Delningen av din journal upphörde (tiden gick ut)', en: 'Sharing of your record ended (its time ran out)' } },
  lapseProxy: { displayName: { sv: 'Inbjudan att ta del av din journal gick ut obesvarad', en: 'An invitation to your record lapsed unanswered' } },
} as const satisfies Record<string, { displayName: DisplayName }>;

export type ProxyEventName = keyof typeof PROXY_EVENTS;

export const isProxyEventName = (name: string): name is ProxyEventName => Object.hasOwn(PROXY_EVENTS, name);

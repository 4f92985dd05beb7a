/**
 * The service's proxy grants (docs/proxies.md), on the COS door at `{base}/patients/proxies/`: the
 * grants the signed-in person gave and received, and the changes they may make. Every call is the
 * person's own (no `patient` header): sharing is decided by the person for their own record only.
 */
import type Client from 'fhirclient/lib/Client';

import type { Grant, GrantBody } from './grant-types.js';
import { RefusedError } from './refusal-words.js';

export type { Grant, GrantBody, GrantParty, GrantStatus } from './grant-types.js';

/** `{base}/patients/proxies/`, from where the page was loaded (`{base}/app/`). */
export function proxiesUrl(): string {
  return `${location.origin}${location.pathname.replace(/\/app(\/.*)?$/, '')}/patients/proxies/`;
}

/** The subscription key the service put in the page (demo mode), or none. */
function subscriptionKey(): string | undefined {
  return document.querySelector<HTMLMetaElement>('meta[name="subscription-key"]')?.content || undefined;
}

async function call<T>(client: Client, path: string, method: 'GET' | 'POST' | 'DELETE', body?: GrantBody): Promise<T> {
  const key = subscriptionKey();
  const headers: Record<string, string> = { accept: 'application/json', authorization: client.getAuthorizationHeader() ?? '' };
  if (key !== undefined) headers['ocp-apim-subscription-key'] = key;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${proxiesUrl()}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  // A refusal by its status alone: its message is the service's English for app makers (refusal-words.ts).
  if (!response.ok) throw new RefusedError(response.status);
  const text = await response.text();
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** Every grant the person gave or received, oldest first. */
export async function listGrants(client: Client): Promise<Grant[]> {
  const answer = await call<Grant[] | { grants?: Grant[] }>(client, '', 'GET');
  return Array.isArray(answer) ? answer : answer.grants ?? [];
}
export const getGrant = (client: Client, id: string): Promise<Grant> => call<Grant>(client, encodeURIComponent(id), 'GET');
export const giveGrant = (client: Client, body: GrantBody): Promise<Grant> => call<Grant>(client, '', 'POST', body);
export const acceptGrant = (client: Client, id: string): Promise<Grant> => call<Grant>(client, `${encodeURIComponent(id)}/accept`, 'POST');
export const declineGrant = (client: Client, id: string): Promise<Grant> => call<Grant>(client, `${encodeURIComponent(id)}/decline`, 'POST');
export const revokeGrant = (client: Client, id: string): Promise<Grant> => call<Grant>(client, encodeURIComponent(id), 'DELETE');

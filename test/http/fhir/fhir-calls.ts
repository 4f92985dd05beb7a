/**
 * What the FHIR API tests of this folder share: the demo people by their role, a SMART app's call
 * (a token, no subscription key: SMART apps send no custom headers), and readers of the answers.
 */
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { ProxyGrants } from '../../../src/domain/proxies/proxy-grants.js';
import { startTestApp, TEST_FHIR_IDS, type AnyTestApp, type TestApp } from '../../support/test-app.js';

/** A test app over either EHR back-end: these calls only speak HTTP. */
type App = TestApp | AnyTestApp;

/** A fixed moment: the demo data (bookings today, guardianships by age) is generated for it. */
export const NOW = Date.parse('2026-11-21T08:00:00Z');

/** Adult with rich data in every read. */
export const TOLVAN = '191212121212';
/** The demo actor: guardian of Lilla, expired guardian of Anton, registered (not counting) for protected Sara. */
export const MARTA = '198112189876';
/** Minor; Märta is her guardian. */
export const LILLA = '201701012393';
/** Now an adult: Märta's guardianship expired. */
export const ANTON = '200404122384';
/** Protected identity: no delegation counts. */
export const SARA = '197305242385';

/** The app a SMART token names (client_id); not a listed client, so a token without a patient claim would be refused. */
export const APP = 'smart-app-1';
export const PERSONNUMMER = 'http://electronichealth.se/identifier/personnummer';
export const FHIR_JSON = 'application/fhir+json; charset=utf-8';

/** A demo person's Patient id under the test apps' key. */
export const pid = (identityNumber: string): string => TEST_FHIR_IDS.patientId(identityNumber);

/** An id of a Patient id's form that no key made: `id` with one character in its middle changed, as an attacker edits one. */
export const forgedLike = (id: string): string => `${id.slice(0, 19)}${id[19] === 'A' ? 'B' : 'A'}${id.slice(20)}`;

/** A person's token as a SMART app gets it: its scopes, the app's client_id, any further claims (smart_patient). */
export const smartToken = (t: App, person: string, scope: string, claims: Record<string, unknown> = {}): Promise<string> =>
  t.personToken(person, { client_id: APP, scope, ...claims });

/** A GET as a SMART app sends it: no subscription key. */
export const get = (t: App, url: string, token?: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> =>
  t.call({ method: 'GET', url, key: null, headers, ...(token === undefined ? {} : { token }) });

export interface Resource { resourceType: string; id: string; [member: string]: unknown }
export interface Bundle {
  resourceType: 'Bundle';
  total?: number;
  link: { relation: string; url: string }[];
  entry?: { fullUrl: string; resource: Resource; search: { mode: 'match' | 'include' } }[];
}

/** A 200 Bundle, or a failed expectation naming what came instead. */
export function bundleOf(res: LightMyRequestResponse): Bundle {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  const body = JSON.parse(res.body) as Bundle;
  expect(body.resourceType).toBe('Bundle');
  return body;
}

export const matchesOf = (b: Bundle): Resource[] => (b.entry ?? []).filter((e) => e.search.mode === 'match').map((e) => e.resource);
export const includesOf = (b: Bundle): Resource[] => (b.entry ?? []).filter((e) => e.search.mode === 'include').map((e) => e.resource);

/** The one issue of an OperationOutcome answer with `status`, after checking the answer is one. */
export function outcomeOf(res: LightMyRequestResponse, status: number): { severity: string; code: string; diagnostics: string } {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
  expect(res.headers['content-type']).toBe(FHIR_JSON);
  const body = JSON.parse(res.body) as { resourceType: string; issue: { severity: string; code: string; diagnostics: string }[] };
  expect(body.resourceType).toBe('OperationOutcome');
  expect(body.issue).toHaveLength(1);
  const [issue] = body.issue;
  if (issue === undefined) throw new Error('no issue');
  expect(issue.severity).toBe('error');
  return issue;
}

/** Sharing on, with limits no test of the door reaches by chance. */
export const SHARING = { invitationDays: 7, maxGrants: 10, maxGrantsPerDay: 100, maxGrantsToOnePerDay: 100 } as const;

/** A test app at NOW with Subscriptions and sharing on, and its grants. */
export async function startWithSharing(): Promise<{ t: TestApp; grants: ProxyGrants }> {
  const t = await startTestApp({ now: NOW, subscriptions: true, proxies: SHARING });
  return { t, grants: t.proxyGrants as ProxyGrants };
}

const nothingToAudit = async (): Promise<void> => undefined;

/** Revokes every grant `grantor` has given that is active or pending: the next test starts with none. */
export async function revokeAllOf(grants: ProxyGrants, grantor: string): Promise<void> {
  for (const g of await grants.list(grantor)) if (g.status === 'active' || g.status === 'pending') await grants.revoke(grantor, g.id, nothingToAudit);
}

/** `grantor` shares `categories` with `grantee`, who accepts: an active grant from now on, its id. */
export async function activeGrant(grants: ProxyGrants, grantor: string, grantee: string, categories: string[]): Promise<string> {
  const given = await grants.give(grantor, { grantee, categories }, nothingToAudit);
  await grants.accept(grantee, given.id, nothingToAudit);
  return given.id;
}

/**
 * Issue 21: the operation table is the one place an operation is described. This walks every entry
 * and shows that what the service does with it follows from the entry alone: served at its paths,
 * scoped (its SMART and vendor spellings too), audited under its name, documented in /openapi.json,
 * named in Swedish and English in the access log, grantable by the demo issuer, and present in the
 * security suites' route table. A new operation passes here, or fails, without an edit to this file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_SCOPES } from '../../src/dev/demo-issuer/demo-clients.js';
import { scopeAliases } from '../../src/domain/access/scopes.js';
import { OPERATION_NAMES, OPERATIONS, type OperationName } from '../../src/domain/operations/table.js';
import type { Operation } from '../../src/domain/operations/operation.js';
import { apiRoutes, type OperationTable } from '../../src/http/routes/api-routes.js';
import { ALL_SCOPES } from '../support/app-wiring.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { expectedAnswer, queryString, UNKNOWN_GRANT_ID, requestOf, routeByOperation } from '../security/support/routes.js';

const ADULT = '191212121212';
type Json = Record<string, unknown>;

/** Every spelling that must grant `op`'s scope: the SMART forms and the entry's own aliases. */
function spellings(op: Operation): string[] {
  const [, resource, action] = /^user\/([A-Za-z]+)-(read|write)$/.exec(op.scope.name) ?? [];
  return [op.scope.name, `user/${resource}.${action}`, `patient/${resource}.${action}`, ...(op.scope.aliases ?? [])];
}

describe('issue 21: every entry of the operation table, end to end', () => {
  let t: TestApp;
  let document: { paths: Record<string, Record<string, Json>> };
  beforeAll(async () => {
    // Sharing on, so its entries are walked as every other.
    t = await startTestApp({ proxies: { invitationDays: 7, maxGrants: 1_000, maxGrantsPerDay: 10_000, maxGrantsToOnePerDay: 100 } });
    document = (await t.call({ method: 'GET', url: '/openapi.json' })).json();
  });
  afterAll(() => t.close());

  const call = async (operation: OperationName, url: string, scope: string) => {
    const route = routeByOperation(operation);
    const token = await t.personToken(ADULT, { scope });
    return t.call({ ...requestOf(route, { url: `${url}${queryString(route.query)}` }), token });
  };

  /** What the person's valid request answers: 200, and for sharing its own (201 for a new grant, 404 for a grant id they do not have). */
  const success = (name: OperationName): number => expectedAnswer(routeByOperation(name), { allowed: true, self: ADULT });

  it.each(OPERATION_NAMES)('%s is served at its spec path and every vendor path, and audited under its name', async (name) => {
    const op: Operation = OPERATIONS[name];
    // The path with a test value in a path parameter; with its trailing slash and without (or with one added).
    const path = routeByOperation(name).path;
    for (const url of [path, path.endsWith('/') ? path.slice(0, -1) : `${path}/`, ...op.vendorPaths]) {
      const res = await call(name, url, ALL_SCOPES);
      expect([url, res.statusCode]).toEqual([url, success(name)]);
      const outcome = t.audit.records.filter((r) => r.phase !== 'attempt').at(-1);
      expect([url, outcome?.operation, outcome?.status]).toEqual([url, name, success(name)]);
    }
  });

  it.each(OPERATION_NAMES)('%s needs its scope, in any of its spellings', async (name) => {
    const op: Operation = OPERATIONS[name];
    const without = ALL_SCOPES.split(' ').filter((s) => s !== op.scope.name).join(' ');
    const path = routeByOperation(name).path;
    const refused = await call(name, path, without);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['www-authenticate']).toBe(`Bearer error="insufficient_scope", scope="${op.scope.name}"`);
    for (const spelling of spellings(op)) {
      expect([spelling, (await call(name, path, spelling)).statusCode]).toEqual([spelling, success(name)]);
    }
  });

  it.each(OPERATION_NAMES)('%s is documented in /openapi.json at each of its paths, with its scope', (name) => {
    const op: Operation = OPERATIONS[name];
    // Where api-version chooses between operations, the route is documented once, under the first.
    const route = apiRoutes().find((r) => r.operations.includes(name));
    const documentedAs = route?.operations[0];
    for (const [path, suffix] of [[op.path, ''], ...op.vendorPaths.map((p) => [p, 'AtVendorPath'])] as const) {
      const entry = document.paths[path.replace(/\/$/, '')]?.[op.method.toLowerCase()];
      expect([path, entry?.operationId]).toEqual([path, `${documentedAs}${suffix}`]);
      expect([path, entry?.security]).toEqual([path, [{ subscriptionKey: [], oauth2: [op.scope.name] }, { subscriptionKeyQuery: [], oauth2: [op.scope.name] }]]);
    }
  });

  it('names every operation in Swedish and English in the access log', async () => {
    for (const name of OPERATION_NAMES) await call(name, routeByOperation(name).path, ALL_SCOPES);
    const entries: Json[] = [];
    for (let url: string | undefined = '/patients/accesslog/?limit=500'; url !== undefined;) {
      const res = await t.call({ method: 'GET', url, token: await t.personToken(ADULT) });
      expect(res.statusCode).toBe(200);
      entries.push(...(res.json() as Json[]));
      url = /<([^>]+)>; rel="next"/.exec(String(res.headers.link ?? ''))?.[1];
    }
    for (const name of OPERATION_NAMES) {
      const entry = entries.find((e) => e.operation === name);
      expect([name, entry?.operationDisplayName]).toEqual([name, OPERATIONS[name].displayName]);
    }
  });

  it('offers every operation\'s scope at the demo issuer, and every operation in the security suites\' route table', () => {
    for (const name of OPERATION_NAMES) {
      const op: Operation = OPERATIONS[name];
      expect([name, API_SCOPES.includes(op.scope.name)]).toEqual([name, true]);
      expect([name, routeByOperation(name).method, routeByOperation(name).path]).toEqual([name, op.method, op.path.replace('{id}', UNKNOWN_GRANT_ID)]);
    }
  });
});

describe('issue 21: an entry that cannot work is refused, never served half-right', () => {
  const variant = (name: OperationName, change: Partial<Operation>): OperationTable =>
    ({ ...OPERATIONS, [name]: { ...OPERATIONS[name], ...change } as Operation });

  it('refuses two operations at one route that differ in error shape, or are not told apart by api-version', () => {
    expect(() => apiRoutes()).not.toThrow();
    expect(() => apiRoutes(variant('getPatientV2', { errorShape: 'error' }))).toThrow(/getPatient and getPatientV2 .* differ in errorShape/);
    expect(() => apiRoutes(variant('getPatientV2', { apiVersion: { value: undefined, whenAbsent: 'x' } }))).toThrow(/not told apart by api-version/);
    expect(() => apiRoutes(variant('getContacts', { path: OPERATIONS.getAttentionSignals.path }))).toThrow(/getAttentionSignals and getContacts/);
  });

  it('refuses one scope spelling that would count as two scopes', () => {
    expect(() => scopeAliases()).not.toThrow();
    const clash = variant('getContacts', { scope: { ...OPERATIONS.getContacts.scope, aliases: ['user/AuditEvent.read'] } });
    expect(() => scopeAliases(clash)).toThrow(/user\/AuditEvent.read would count as both/);
  });

});

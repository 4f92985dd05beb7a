import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_NAMES, OPERATIONS } from '../../src/domain/operations/table.js';
import { expectedAnswer, requestOf, routeByOperation } from '../security/support/routes.js';
import { ALL_SCOPES, startTestApp, type TestApp } from '../support/test-app.js';

describe('route × scope matrix', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ proxies: { invitationDays: 7, maxGrants: 1_000, maxGrantsPerDay: 10_000, maxGrantsToOnePerDay: 100 } });
  });
  afterAll(() => t.close());

  it.each(OPERATION_NAMES)('%s needs its own scope and no other will do', async (operation) => {
    const route = requestOf(routeByOperation(operation));
    // The person's own answer: 200, or sharing's (201 for a new grant, 404 for a grant id they do not have).
    const success = expectedAnswer(routeByOperation(operation), { allowed: true, self: '191212121212' });
    const needed = OPERATIONS[operation].scope.name;
    const allButNeeded = ALL_SCOPES.split(' ').filter((s) => s !== needed).join(' ');
    const refused = await t.call({ ...route, token: await t.personToken('191212121212', { scope: allButNeeded }) });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['www-authenticate']).toBe(`Bearer error="insufficient_scope", scope="${needed}"`);
    const allowed = await t.call({ ...route, token: await t.personToken('191212121212', { scope: needed }) });
    expect(allowed.statusCode).toBe(success);
    const none = await t.call({ ...route, token: await t.personToken('191212121212', { scope: '' }) });
    expect(none.statusCode).toBe(403);
  });
});

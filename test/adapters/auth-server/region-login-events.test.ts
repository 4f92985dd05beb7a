/**
 * Issue 52 item 16, the logins at the region (docs/sign-in.md#what-the-person-sees): each one, signed in
 * or refused, is an audit record before it counts; a login that cannot be recorded rejects (the
 * callback then signs nobody in), and no log line names the person.
 */
import { describe, expect, it } from 'vitest';
import { regionLoginEvents } from '../../../src/start/login-events.js';
import { FixedClock } from '../../fakes/fixed-clock.js';
import { MemoryAuditTrail } from '../../fakes/memory-audit-trail.js';

const REGION = 'https://login.region.example.se';
const NOW = Date.parse('2026-03-02T09:30:00.000Z');

function setUp() {
  const trail = new MemoryAuditTrail();
  const lines: Array<{ level: string; obj: object; msg: string }> = [];
  const counted: string[] = [];
  const events = regionLoginEvents({
    regionIssuer: REGION, trail, clock: new FixedClock(NOW),
    logger: { info: (obj, msg) => lines.push({ level: 'info', obj, msg }), warn: (obj, msg) => lines.push({ level: 'warn', obj, msg }) },
    countFailure: (kind) => counted.push(kind),
  });
  return { trail, lines, counted, events };
}

const LOGIN = { accountId: '198112189876', subject: 'sub-at-the-region', clientId: 'smart-app', acr: 'loa3', sourceAddress: '203.0.113.7' };

describe('the audit records of logins at the region', () => {
  it('records a login as the person\'s, through the app, before it counts; the log line names nobody', async () => {
    const { trail, lines, events } = setUp();
    await events.loginSucceeded(LOGIN);
    expect(trail.records).toEqual([expect.objectContaining({
      operation: 'regionLogin', time: '2026-03-02T09:30:00.000Z', actor: { issuer: REGION, subject: 'sub-at-the-region', personId: '198112189876' },
      clientId: 'smart-app', outcome: 'allowed', status: 200, sourceAddress: '203.0.113.7',
    })]);
    expect(trail.records[0]?.patientId).toBeUndefined();
    expect(JSON.stringify(lines)).not.toContain('198112189876');
  });

  it('rejects a login the audit store will not take, so nobody is signed in, and says so in the log', async () => {
    const { trail, lines, counted, events } = setUp();
    trail.mode = 'fail';
    await expect(events.loginSucceeded(LOGIN)).rejects.toThrow('audit store down');
    expect(lines.map((l) => l.msg)).toEqual(['a sign-in at the region\'s login could not be audited: nobody was signed in']);
    expect(counted).toEqual(['login']);
    expect(JSON.stringify(lines)).not.toContain('198112189876');
  });

  it.each([
    ['not-here', 'denied', 400],
    ['refused', 'denied', 401],
    ['region-failed', 'failed', 502],
  ] as const)('records a refusal of kind %s as %s %i, with no actor', async (kind, outcome, status) => {
    const { trail, lines, counted, events } = setUp();
    await events.loginFailed({ kind, reason: 'why, for operators', clientId: 'smart-app', sourceAddress: '203.0.113.7' });
    expect(trail.records).toEqual([expect.objectContaining({ operation: 'regionLogin', clientId: 'smart-app', outcome, status, sourceAddress: '203.0.113.7' })]);
    expect(trail.records[0]?.actor).toBeUndefined();
    expect(counted).toEqual(['login']);
    expect(lines).toEqual([{ level: 'warn', obj: { clientId: 'smart-app', reason: 'why, for operators' }, msg: 'sign-in at the region\'s login failed: nothing granted' }]);
  });

  it('logs a refusal the audit store will not take, which stays refused', async () => {
    const { trail, lines, events } = setUp();
    trail.mode = 'fail';
    await expect(events.loginFailed({ kind: 'refused', reason: 'cancelled', clientId: undefined, sourceAddress: '' })).rejects.toThrow();
    expect(lines.map((l) => l.msg)).toContain('a refused sign-in at the region\'s login could not be audited (it was refused all the same)');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, type OperationName } from '../../src/domain/access/operations.js';
import { ALL_SCOPES, startTestApp, type TestApp } from '../support/test-app.js';

const ROUTES: Record<OperationName, { method: 'GET' | 'PUT' | 'POST'; url: string; payload?: object }> = {
  registerPayment: { method: 'POST', url: '/patients/paymentnotice/', payload: { status: 'PAID', contactId: '1', paymentType: 'CARD' } },
  changeAppointment: { method: 'PUT', url: '/patients/appointments/?id=1', payload: { status: 'arrived' } },
  getAppointments: { method: 'GET', url: '/patients/appointments/' },
  getPatient: { method: 'GET', url: '/patients/patient/' },
  getPatientV2: { method: 'GET', url: '/patients/patient/?api-version=v2' },
  getContacts: { method: 'GET', url: '/patients/contacts/' },
  getAttentionSignals: { method: 'GET', url: '/patients/attentionsignals/' },
  getVideoMeetings: { method: 'GET', url: '/patients/videomeetings/' },
  getMedications: { method: 'GET', url: '/patients/medications/' },
  getJournalNotes: { method: 'GET', url: '/patients/journalnotes/' },
  getAccessLog: { method: 'GET', url: '/patients/accesslog/' },
};

describe('route × scope matrix', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it.each(Object.keys(ROUTES) as OperationName[])('%s needs its own scope and no other will do', async (operation) => {
    const route = ROUTES[operation];
    const needed = OPERATIONS[operation].scope;
    const allButNeeded = ALL_SCOPES.split(' ').filter((s) => s !== needed).join(' ');
    const refused = await t.call({ ...route, token: await t.personToken('191212121212', { scope: allButNeeded }) });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['www-authenticate']).toBe(`Bearer error="insufficient_scope", scope="${needed}"`);
    const allowed = await t.call({ ...route, token: await t.personToken('191212121212', { scope: needed }) });
    expect(allowed.statusCode).toBe(200);
    const none = await t.call({ ...route, token: await t.personToken('191212121212', { scope: '' }) });
    expect(none.statusCode).toBe(403);
  });
});

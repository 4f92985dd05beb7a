import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, OTHER_KEY, startTestApp, type TestApp } from '../support/test-app.js';

const IDS = ['191212121212', '198112189876', '201701012393', '197305242385', '195507142478', '194608632396'];
const hyphenated = (id: string): string => `${id.slice(0, 8)}-${id.slice(8)}`;

describe('logs of a full run of requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ rateLimitMax: 40 });
  });
  afterAll(() => t.close());

  it('never contain a token, a subscription key or an identity number', async () => {
    const tokens = [await t.personToken(IDS[0] ?? ''), await t.personToken(IDS[1] ?? ''), await t.clientToken()];
    const urls = ['/patients/appointments/', '/patients/patient/?api-version=v2', '/patients/contacts/', '/patients/journalnotes/'];
    for (const token of tokens) {
      for (const url of urls) {
        for (const patient of [undefined, IDS[2], hyphenated(IDS[3] ?? ''), IDS[4], 'x191212121212x']) {
          await t.call({ method: 'GET', url, token, ...(patient ? { patient } : {}) });
        }
      }
      await t.call({ method: 'GET', url: `/patients/appointments/?access_token=${token}` });
      await t.call({ method: 'GET', url: `/patients/appointments/?fromDateTime=${IDS[0]}`, token });
      await t.call({ method: 'PUT', url: `/patients/appointments/?id=${IDS[0]}`, token, payload: { status: 'arrived' }, patient: IDS[0] });
      await t.call({ method: 'POST', url: '/patients/paymentnotice/', token, payload: { status: 'PAID', contactId: IDS[5], paymentType: 'CARD' } });
      await t.call({ method: 'GET', url: '/patients/medications/', token, key: OTHER_KEY });
    }
    await t.call({ method: 'GET', url: '/patients/medications/', token: tokens[0], key: `${KEY}x` });
    for (let i = 0; i < 45; i++) await t.call({ method: 'GET', url: '/patients/attentionsignals/', token: tokens[0] });
    t.audit.mode = 'fail';
    await t.call({ method: 'GET', url: '/patients/attentionsignals/', token: tokens[1], key: OTHER_KEY, patient: IDS[2] });
    t.audit.mode = 'ok';

    const log = t.logLines.join('\n');
    expect(t.logLines.length).toBeGreaterThan(100);
    expect(log).toContain('request completed');
    for (const secret of [...tokens, KEY, OTHER_KEY]) expect(log).not.toContain(secret);
    for (const part of tokens.flatMap((tok) => tok.split('.'))) expect(log).not.toContain(part);
    for (const id of IDS) {
      expect(log).not.toContain(id);
      expect(log).not.toContain(hyphenated(id));
    }
  });

  it('write one line per request: request id, method, path without query, status and duration', async () => {
    const token = await t.personToken(IDS[0] ?? '');
    const res = await t.call({ method: 'GET', url: '/patients/contacts/?fromDateTime=2024-01-01T00:00:00', token, key: OTHER_KEY, headers: { 'x-request-id': 'one-line-1' } });
    expect(res.statusCode).toBe(200);
    const lines = t.logLines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.reqId === res.headers['x-request-id']);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request completed', req: { method: 'GET', path: '/patients/contacts/' }, res: { statusCode: 200 }, callerRequestId: 'one-line-1',
    });
    expect(typeof lines[0]?.responseTime).toBe('number');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';

// The docs page holds a person's token after Authorize: every address that serves it, however
// spelled, must be unframeable and leak no referrer (src/http/plugins/openapi.ts).
const SPELLINGS = ['/docs', '/docs/', '/docs?x=1', '/docs/?x=1', '/docs/static/index.html', '/docs/static/index.html?x=1',
  '/docs/static/oauth2-redirect.html', '/docs/static/oauth2-redirect.html?state=1', '/docs/json', '/docs/no-such-page',
  // The router decodes the path; request.url keeps it as sent.
  '/docs?', '/%64ocs', '/%64ocs/', '/%64ocs/static/index.html', '/%64ocs/static/oauth2-redirect.html'];

describe('docs page headers on every spelling of its address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it.each(SPELLINGS)('%s is unframeable and sends no referrer', async (url) => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await t.app.inject({ method, url });
      expect([method, url, res.headers['x-frame-options']]).toEqual([method, url, 'DENY']);
      expect(String(res.headers['content-security-policy'])).toMatch(/frame-ancestors 'none'/);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });
});

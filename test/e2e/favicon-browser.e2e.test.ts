/**
 * Issue 55 item 10, in Chromium: opening the patient app, the demo sign-in page (the demo issuer's own
 * origin) and /docs logs no error in the console and fetches nothing that answers 404: the browser's
 * request for /favicon.ico on each origin was the 404 of every page. Each origin's icon is asked for too.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, demoServiceAndBrowser, type DemoInBrowser } from '../support/browser.js';

const skipped = browserMissing('issue 55 item 10: the browser test of /favicon.ico');

/** What the page's console said in error, and every answer of 400 or more it fetched, while `visit` ran. */
async function failures(page: Page, visit: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error') seen.push(`console: ${m.text()}`); });
  page.on('response', (r) => { if (r.status() >= 400) seen.push(`${r.status()} ${r.url()}`); });
  await visit();
  // The icon is fetched after the page has loaded: waited for until nothing is fetched for half a second
  // (playwright's network idle), not a fixed second and a half.
  await page.waitForLoadState('networkidle');
  return seen;
}

describe.skipIf(skipped)('issue 55 item 10: no 404 in the browser console', () => {
  let demo: DemoInBrowser;
  beforeAll(async () => { demo = await demoServiceAndBrowser('favicon'); }, 60_000);
  afterAll(async () => demo?.close());

  it('on the patient app, the demo sign-in page and the API documentation', async () => {
    const context = await demo.browser.newContext({ locale: 'en-GB' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    expect(await failures(page, async () => {
      await page.goto(`${demo.base}/app/`);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { name: 'Sign in to Patient app' }).waitFor();
    })).toEqual([]);
    // Headless Chromium here asks for no /favicon.ico of its own (only /docs's icon link is fetched), so each
    // origin's is asked for outright: the service's (the app's) and the demo issuer's.
    for (const origin of [new URL(demo.base).origin, new URL(page.url()).origin]) {
      const icon = await context.request.get(`${origin}/favicon.ico`);
      expect([origin, icon.status(), icon.headers()['content-type']]).toEqual([origin, 200, expect.stringMatching(/^image\//)]);
    }
    const docs = await context.newPage();
    expect(await failures(docs, async () => {
      await docs.goto(`${demo.base}/docs`);
      await docs.waitForLoadState('networkidle');
    })).toEqual([]);
    await context.close();
  }, 60_000);
});

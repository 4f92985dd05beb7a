/**
 * Issue 22 item 8: the docs page in a real browser, as a newcomer uses it. Headless Chromium opens
 * `/`, lands on `/docs`, signs in through *Authorize* (authorization code with PKCE at the demo
 * issuer, as Tolvan) and gets a 200 from "Try it out" on the journal notes. Issue 47 item 3: in the
 * dialog the filled-in key comes first, then the OAuth sign-in, whose button is the first *Authorize*
 * and in view; no block is empty. Screenshots of the dialog and the answer are kept in
 * test-artifacts/ (gitignored) with TEST_SCREENSHOTS=1. Skipped, saying why, only where no Chromium is
 * installed and CI is not set: in CI (.ci/run installs Debian's chromium) a missing browser fails.
 */
import { mkdir } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, browserMissing, demoServiceAndBrowser, keepScreenshot, type DemoInBrowser } from '../support/browser.js';

const skipped = browserMissing('issue 22 item 8: the browser test of the docs page');

describe.skipIf(skipped)('issue 22 item 8: the docs page in Chromium, demo mode', () => {
  let demo: DemoInBrowser;
  let base: string;
  let browser: Browser;
  beforeAll(async () => {
    demo = await demoServiceAndBrowser('docs-browser');
    ({ base, browser } = demo);
  }, 60_000);
  afterAll(async () => demo?.close());

  it('opens /, lands on /docs, signs in with PKCE as a demo person and gets 200 from Try it out on the journal notes', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.goto(`${base}/`);
    expect(new URL(page.url()).pathname).toMatch(/^\/docs/);
    await page.getByText('Demo mode: three clicks.').waitFor();

    // Authorize: the key is already there; the one OAuth flow has every scope ticked.
    await page.locator('.auth-wrapper .btn.authorize').click();
    const dialog = page.locator('.modal-ux');
    await dialog.getByText('subscriptionKey (apiKey)').waitFor();
    // Swagger UI labels its buttons for screen readers otherwise; they are found by their visible text.
    // The key's section says Authorized, with its Logout button: the only one before signing in.
    expect(await dialog.locator('button', { hasText: 'Logout' }).count()).toBe(1);
    // Issue 47 item 3: the key's block, then the OAuth sign-in, and no empty block: the key in the query
    // (an empty field with the first Authorize button) is in /openapi.json, not in the dialog.
    const blocks = dialog.locator('.auth-container h4');
    expect((await blocks.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual(['subscriptionKey (apiKey)', 'oauth2 (OAuth2, authorizationCode with PKCE)']);
    expect(await dialog.locator('input:visible').evaluateAll((inputs) => inputs.filter((i) => (i as unknown as { value: string }).value === '').length)).toBe(0);
    const oauth = dialog.locator('.auth-container').filter({ hasText: 'oauth2 (OAuth2, authorizationCode with PKCE)' });
    const boxes = oauth.locator('input[type="checkbox"]');
    expect(await boxes.count()).toBeGreaterThan(10);
    for (const box of await boxes.all()) expect(await box.isChecked()).toBe(true);
    // The first Authorize a person sees is the sign-in, in view without scrolling (1280×720).
    const first = dialog.locator('button', { hasText: 'Authorize' }).first();
    const box = await first.boundingBox();
    expect(box === null ? Infinity : box.y + box.height).toBeLessThanOrEqual(page.viewportSize()?.height ?? 0);
    await keepScreenshot(() => page.screenshot({ path: new URL('docs-authorize-dialog.png', ARTIFACTS).pathname }));
    const popupOpened = page.waitForEvent('popup');
    await first.click();
    const popup = await popupOpened;
    await popup.getByRole('button', { name: 'Sign in as Tolvan' }).click();
    await popup.getByRole('button', { name: 'Allow' }).click();
    await expect.poll(() => dialog.locator('button', { hasText: 'Logout' }).count(), { timeout: 15_000 }).toBe(2);
    await dialog.locator('button.btn-done').first().click();

    // Try it out on the journal notes.
    const operation = page.locator('#operations-Journal_notes-getJournalNotes');
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    await operation.locator('button.execute').click();
    const status = operation.locator('.live-responses-table tbody tr.response .response-col_status').first();
    await status.waitFor();
    await status.scrollIntoViewIfNeeded();
    await keepScreenshot(() => page.screenshot({ path: new URL('docs-try-it-out.png', ARTIFACTS).pathname, fullPage: false }));
    expect((await status.innerText()).trim()).toBe('200');
    await context.close();
  }, 45_000);
});

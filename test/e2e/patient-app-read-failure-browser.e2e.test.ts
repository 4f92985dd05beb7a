/**
 * Hostile review, finding 5: what the patient app shows when one of its reads fails. fhirclient's error
 * message is "503 Service Unavailable\nURL: <the FHIR search, the patient's id in it>" followed by the
 * answer's whole JSON, and the app put it on the page as it was: English under Swedish words, the
 * service's internals to a patient. The app says in its own words, in the page's language, what the
 * person can do, with the status for whoever helps them; the rest of the record still stands.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, demoServiceAndBrowser, type DemoInBrowser } from '../support/browser.js';

const skipped = browserMissing('the browser test of the patient app\'s failed reads');

/** Signs Tolvan in at the demo authorization server (he acts for nobody: no picker) and allows. */
async function signInAsTolvan(page: Page, appUrl: string): Promise<void> {
  await page.getByRole('button', { name: 'Logga in', exact: true }).click();
  await page.waitForURL((u) => !u.href.startsWith(appUrl));
  await page.getByRole('button', { name: /Tolvan/ }).first().click();
  const allow = page.getByRole('button', { name: /^(Tillåt|Allow)$/ });
  await Promise.race([allow.waitFor().then(() => allow.click()), page.waitForURL((u) => u.href.startsWith(appUrl))]);
  await page.waitForURL((u) => u.href.startsWith(appUrl));
}

describe.skipIf(skipped)('the patient app when a read fails', () => {
  let demo: DemoInBrowser;
  let base: string;
  let browser: Browser;
  beforeAll(async () => {
    demo = await demoServiceAndBrowser('patient-app-read-failure');
    ({ base, browser } = demo);
  }, 60_000);
  afterAll(async () => demo?.close());

  it('a 503 and a 429 are said in the app\'s own Swedish words: no URL, no JSON, no English status text', async () => {
    const context = await browser.newContext({ locale: 'sv-SE' });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      const outcome = (code: string, diagnostics: string) => JSON.stringify({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code, diagnostics }] });
      // The service's own answers when its audit store is down and when a person's budget is spent.
      await page.route(/\/fhir\/Composition\?/, (route) => route.fulfill({ status: 503, contentType: 'application/fhir+json', body: outcome('transient', 'The audit trail cannot be written now.') }));
      await page.route(/\/fhir\/MedicationRequest\?/, (route) => route.fulfill({ status: 429, contentType: 'application/fhir+json', headers: { 'retry-after': '30' }, body: outcome('throttled', 'Too many requests.') }));
      const appUrl = `${base}/app/`;
      await page.goto(appUrl);
      await signInAsTolvan(page, appUrl);
      await page.getByText('Uppgifterna är hämtade.').waitFor();
      const failures = await page.locator('p.error').allInnerTexts();
      expect(failures).toHaveLength(2);
      for (const text of failures) {
        expect(text).toMatch(/^Kunde inte läsas \((503|429)\): /);
        expect(text).not.toMatch(/URL|http|OperationOutcome|Service Unavailable|Too Many Requests|audit|\{/);
      }
      expect(failures.join(' ')).toContain('försök igen');
      // The other sections still stand: the lab results were read.
      expect(await page.locator('canvas[role="img"]').count()).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  }, 90_000);
});

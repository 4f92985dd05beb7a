/**
 * The patient app's language reaches the sign-in (docs/patient-app.md): set to Svenska in an English browser, the app
 * asks the authorization server for Swedish pages (`ui_locales`), and the demo sign-in page is Swedish. Newcomer
 * walk-through helper-193, F5: the app sent `ui_locales` on sign-out only, and the sign-in page stayed English.
 * Failed before: "Sign in to Patient app", `lang="en"`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, demoServiceAndBrowser, type DemoInBrowser } from '../support/browser.js';

const skipped = browserMissing('the browser test of the patient app\'s language at sign-in');

describe.skipIf(skipped)('the patient app\'s language at sign-in, in Chromium', () => {
  let demo: DemoInBrowser;
  beforeAll(async () => { demo = await demoServiceAndBrowser('patient-app-language'); }, 60_000);
  afterAll(async () => demo?.close());

  it('asks for the sign-in pages in the language the app was set to', async () => {
    const context = await demo.browser.newContext({ locale: 'en-GB' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${demo.base}/app/`);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await page.getByRole('button', { name: 'Svenska' }).click();
    await page.getByRole('button', { name: 'Logga in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Logga in i Patientappen' }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('sv');
    await context.close();
  }, 60_000);
});

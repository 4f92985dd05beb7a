/**
 * Issue 55 item 9, in Chromium: the stand-in region login's page (npm run region-login) is a page of the
 * service's kind, at 390 px and at desktop width, in Swedish and English: a main landmark, nothing wider
 * than the screen, no axe-core WCAG 2.1 A/AA violation (nor a serious or critical best-practice one);
 * picking a person sends the browser back to the service with a code. Screenshots go to test-artifacts/ (TEST_SCREENSHOTS=1),
 * and with UPDATE_DOC_SCREENSHOTS=1 the English phone one to docs/images/sign-in/stand-in.png.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import * as client from 'openid-client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRegionLogin, type RegionLogin } from '../../src/dev/region-login/region-login.js';
import { LOA3, PNR_SCOPE } from '../../src/dev/region-login/region-provider.js';
import { ARTIFACTS, browserMissing, closeContexts, keepScreenshot, workerChromium } from '../support/browser.js';
import { violations } from '../support/sign-in-browser.js';

const skipped = browserMissing('issue 55 item 9: the browser test of the stand-in region login');
// Nothing listens there: the browser is stopped at the redirect and the code read from it.
const REDIRECT = 'http://127.0.0.1:9/auth/callback';

describe.skipIf(skipped)('the stand-in region login in Chromium', () => {
  let login: RegionLogin;
  let config: client.Configuration;
  let browser: Browser;
  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    login = await startRegionLogin({ host: '127.0.0.1', port: 0, client: { clientId: 'pdas', clientSecret: 'browser-test-secret', redirectUris: [REDIRECT] } });
    config = await client.discovery(new URL(login.issuer), 'pdas', 'browser-test-secret', undefined, { execute: [client.allowInsecureRequests] });
    browser = await workerChromium();
  }, 60_000);
  afterAll(async () => {
    if (browser !== undefined) await closeContexts(browser);
    await login?.close();
  });

  it.each([
    ['en-GB', 390, 'Who signs in?', 'Sign in as Märta Ström'], ['sv-SE', 390, 'Vem loggar in?', 'Logga in som Märta Ström'],
    ['en-GB', 1280, 'Who signs in?', 'Sign in as Märta Ström'], ['sv-SE', 1280, 'Vem loggar in?', 'Logga in som Märta Ström'],
  ])('%s at %i px: its page, accessible, and Märta signs in', async (locale, width, heading, asMarta) => {
    const context = await browser.newContext({ viewport: { width, height: 844 }, locale });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT, scope: `openid ${PNR_SCOPE}`, acr_values: LOA3, state: 's', prompt: 'login',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()), code_challenge_method: 'S256',
    });
    await page.goto(url.href);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBe(width);
    expect(await violations(page)).toEqual([]);
    const file = new URL(`region-login-${locale}-${width}.png`, ARTIFACTS).pathname;
    await keepScreenshot(() => page.screenshot({ path: file, fullPage: true }));
    if (process.env.UPDATE_DOC_SCREENSHOTS === '1' && locale === 'en-GB' && width === 390) {
      await copyFile(file, new URL('../../docs/images/sign-in/stand-in.png', import.meta.url).pathname);
    }
    const back = page.waitForRequest((r) => r.url().startsWith(REDIRECT));
    await page.getByRole('button', { name: asMarta }).click();
    expect(new URL((await back).url()).searchParams.get('code')).toEqual(expect.any(String));
    await context.close();
  }, 60_000);
});

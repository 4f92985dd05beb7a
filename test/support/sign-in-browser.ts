/**
 * Steps the browser tests of the sign-in pages share (test/e2e/*sign-in*-browser.e2e.test.ts), whichever
 * login signs the person in: axe-core's verdict on a page, Märta picking Lilla and allowing the patient
 * app, and the refresh token fhirclient keeps in the app's sessionStorage.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * axe-core's minified build: the package's `source` is its unminified one, 1.48 MB against 0.65, and a
 * document parsed it in 320 ms against 160 here (17 injections in three browser files: 5.4 s against 2.7).
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation { id: string; impact: string | null; tags: string[]; nodes: { target: string[] }[] }

/**
 * axe-core's WCAG 2.1 A and AA and best-practice violations on the page as it is now. Its script is
 * put in a document once, and only violations are asked for: axe-core then finds the same ones,
 * without building each passing node's selector.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!await page.evaluate(() => 'axe' in globalThis)) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(o: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] }, resultTypes: ['violations'] })).violations;
  });
}

/** axe-core's WCAG 2.1 A and AA violations (any impact) and serious or critical best-practice ones, on the page as it is now. */
export async function violations(page: Page): Promise<string[]> {
  return (await axeViolations(page)).filter((v) => v.tags.some((t) => t.startsWith('wcag')) || v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * On the picker (Märta signed in): she picks Lilla, consent names Lilla's records, she allows, and the
 * patient app reads Lilla's record. `check` runs on the picker and on consent, named so.
 */
export async function pickLillaAndAllow(page: Page, appUrl: string, check: (name: 'picker' | 'consent') => Promise<void>): Promise<void> {
  await page.getByRole('heading', { name: 'Whose record should Patient app open?' }).waitFor();
  await check('picker');
  await page.getByRole('button', { name: 'Lilla Ström — you are their guardian' }).click();
  await page.getByRole('heading', { name: 'Patient app asks for access' }).waitFor();
  expect(await page.getByRole('main').innerText()).toContain('Whose records: Lilla Ström');
  await check('consent');
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL((u) => u.href.startsWith(appUrl));
  await page.getByText('The record has been read.').waitFor();
  expect(await page.getByRole('heading', { level: 1 }).innerText()).toMatch(/Lilla/);
}

/** The refresh token fhirclient keeps for the app's sign-in (its sessionStorage state). */
export function appRefreshToken(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    const key = JSON.parse(sessionStorage.getItem('SMART_KEY') ?? '""') as string;
    return (JSON.parse(sessionStorage.getItem(key) ?? '{}') as { tokenResponse?: { refresh_token?: string } }).tokenResponse?.refresh_token;
  });
}

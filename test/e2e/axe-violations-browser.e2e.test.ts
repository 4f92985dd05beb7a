/**
 * The browser tests' axe-core helper (test/support/sign-in-browser.ts) puts axe-core in a document once
 * and asks it for violations only: what it finds is what a full run, injected afresh, finds, on a page
 * with violations of several kinds and once the page has changed under the injected axe-core.
 */
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, closeContexts, workerChromium } from '../support/browser.js';
import { axeViolations, type AxeViolation } from '../support/sign-in-browser.js';

const skipped = browserMissing('the browser test of the axe-core helper');
const AXE_SOURCE = (createRequire(import.meta.url)('axe-core') as { source: string }).source;
const PAGE = `<!doctype html><html><head><title>t</title></head><body>
  <main><h1>Heading</h1><img src="data:,"><p style="color:#bbb;background:#fff">faint</p>
  <input type="text"><a href="#"></a><button></button><ul><div>not a list item</div></ul></main></body></html>`;

/** A full axe-core run as the tests made it before: injected again, every result type. */
async function fullRun(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(o: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })).violations;
  });
}

const summary = (found: AxeViolation[]) => found.map((v) => ({ id: v.id, impact: v.impact, tags: v.tags, targets: v.nodes.map((n) => n.target) }));

describe.skipIf(skipped)('the axe-core helper of the browser tests', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await workerChromium(); }, 60_000);
  afterAll(async () => { if (browser !== undefined) await closeContexts(browser); });

  it('finds what a full run finds, the first time and after the page changed', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.setContent(PAGE);
    const first = summary(await axeViolations(page));
    expect(first.map((v) => v.id)).toEqual(expect.arrayContaining(['image-alt', 'color-contrast', 'label', 'link-name', 'button-name', 'list']));
    expect(first).toEqual(summary(await fullRun(page)));
    await page.evaluate('document.querySelector("img").setAttribute("alt", "a picture")');
    const second = summary(await axeViolations(page));
    expect(second.map((v) => v.id)).not.toContain('image-alt');
    expect(second).toEqual(summary(await fullRun(page)));
    await context.close();
  });
});

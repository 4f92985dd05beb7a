/**
 * What the browser tests share (test/e2e/*-browser.e2e.test.ts): Debian's Chromium driven by
 * playwright-core, the folder their screenshots are kept in when asked for (test-artifacts/, gitignored), and the
 * service as `npm start` runs it in demo mode. Where no Chromium is installed they skip, saying why,
 * unless CI is set: there (.ci/run installs chromium) a missing browser fails.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { freePort } from '../../bench/util.js';
import { createLogger } from '../../src/http/logging.js';
import { loadConfig, type Config } from '../../src/start/config.js';
import { compose } from '../../src/start/container.js';
import { listen } from '../../src/start/listen.js';
import { inCi, noteSkip } from './requirements.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url);
/**
 * Screenshots are for a person to look at, and no test compares them: they are taken with
 * TEST_SCREENSHOTS=1, or with UPDATE_DOC_SCREENSHOTS=1 (which also copies the docs' own into docs/images/).
 * A run without either took none: a full-page one of a long record took a second here.
 */
export const SCREENSHOTS = process.env.TEST_SCREENSHOTS === '1' || process.env.UPDATE_DOC_SCREENSHOTS === '1';

/** Runs `take` (a screenshot into test-artifacts/) where SCREENSHOTS asks for them; true if it ran. */
export async function keepScreenshot(take: () => Promise<unknown>): Promise<boolean> {
  if (SCREENSHOTS) await take();
  return SCREENSHOTS;
}

/** True where `what` is to be skipped (no Chromium, CI unset), having said so and noted it for the run's last line. */
export function browserMissing(what: string): boolean {
  const missing = !existsSync(CHROMIUM) && !inCi();
  if (missing) {
    console.warn(`${what}: skipped`);
    noteSkip('Chromium', `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  }
  return missing;
}

let chromiumOfWorker: Promise<Browser> | undefined;

/**
 * Chromium, launched once in a vitest worker and shared by the browser test files it runs (the main
 * project's files share their worker's modules): a launch took a second a file here, and each test opens
 * a browser context of its own, which shares no cookie, storage or cache with another. Playwright closes
 * it when the worker ends (its SIGTERM and exit handlers); a browser that crashed is launched again.
 */
export function workerChromium(): Promise<Browser> {
  if (chromiumOfWorker === undefined) {
    const launched = chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    const forget = () => { if (chromiumOfWorker === launched) chromiumOfWorker = undefined; };
    chromiumOfWorker = launched;
    launched.then((browser) => browser.on('disconnected', forget), forget);
  }
  return chromiumOfWorker;
}

/** Closes what a file left open in the worker's Chromium (a test that failed before closing its context), so the next file starts with none. */
export async function closeContexts(browser: Browser): Promise<void> {
  await Promise.all(browser.contexts().map((context) => context.close()));
}

export interface DemoInBrowser {
  /** `http://127.0.0.1:<port>` of the API. */
  base: string;
  browser: Browser;
  /** The service's settings (its DATA_DIR among them). */
  config: Config;
  close(): Promise<void>;
}

/**
 * The service in demo mode on a port free now (a page's sign-in callback names the API's port, so it
 * cannot be 0), with `settings` beside the demo's (a RELEASE_POLICY_FILE), and the worker's Chromium
 * (workerChromium). `close` stops the service and closes the contexts the file left open, not the browser.
 */
export async function demoServiceAndBrowser(name: string, settings: Record<string, string> = {}): Promise<DemoInBrowser> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `pdas-${name}-`));
  const config = loadConfig({ DATA_DIR: dataDir, PORT: String(await freePort()), METRICS_PORT: '0', DEMO_AUTH_PORT: '0', LOG_LEVEL: 'silent', ...settings });
  const runtime = await compose(config, createLogger('silent'));
  const base = (await listen(runtime, config)).api;
  const stopService = async () => {
    await runtime.close();
    // Retried: once, at a load of 14, the folder was not empty when its last directory was removed
    // (ENOTEMPTY); it did not come again in four runs of the browser files.
    await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
  const browser = await workerChromium().catch(async (err: unknown) => {
    await stopService();
    throw err;
  });
  return {
    base, browser, config,
    close: async () => {
      await closeContexts(browser);
      await stopService();
    },
  };
}

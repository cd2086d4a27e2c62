import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ROOT_DIR } from '@comps/scripts/stack/launch-stack';

/** Debian's Chromium (`apt-get install chromium`; npm test installs it when missing). */
export const CHROMIUM_BIN = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';

/** Nothing in the background reaches out (no network here, and none wanted): updates, sync, QUIC, first-run pages. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The README's screenshots (docs/screenshots) are refreshed only when asked
 * (`UPDATE_SCREENSHOTS=1 npm test -- test/dashboard`): an ordinary test run leaves the checkout
 * unchanged and keeps its pictures with the logs.
 */
export const SCREENSHOT_DIR = process.env.UPDATE_SCREENSHOTS === '1' ? path.join(ROOT_DIR, 'docs', 'screenshots') : path.join(ROOT_DIR, 'test', '.logs', 'screenshots');

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** A headless Chromium for one test file, closed when the test ends. */
export async function launchBrowser(t: Teardown): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_BIN, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
  t.teardown(() => browser.close());
  return browser;
}

export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  /** Console errors and failed requests seen so far (a Content-Security-Policy violation is one). */
  problems: string[];
}

/** A fresh browser profile (its own cookies) and a page in it, with the page's errors collected. */
export async function openPage(browser: Browser, baseURL: string): Promise<WatchedPage> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const problems: string[] = [];
  page.on('console', (message) => {
    // A page answered with an error status on purpose (a form refused, the 404 page) is not a problem of the page.
    const ownStatus = message.text().startsWith('Failed to load resource') && message.location().url === page.url();
    if (message.type() === 'error' && !ownStatus) problems.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { context, page, problems };
}

/** A full-page screenshot, NAME.png in SCREENSHOT_DIR. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  return file;
}

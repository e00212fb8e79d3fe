import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startBrowserMode } from '../../electron/browser-mode';
import { silentLogger } from '../../electron/core/logger';
import type { AppOptions } from '../../electron/core/app';

/** Debian's Chromium with the flags this machine needs (no sandbox as root, no background network), and a test's own. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run', ...extraArgs],
  });
}

/**
 * The one Chromium of this test process, launched at first use and kept for the next test files the process
 * runs (vitest reuses its workers: the e2e project has `isolate: false`). Each session gets a context of its
 * own (its own storage, cookies, locale, viewport), closed with it; a browser that went away is launched again.
 */
let shared: Promise<Browser> | undefined;
async function sharedChromium(): Promise<Browser> {
  const current = shared && (await shared.catch(() => undefined));
  if (current?.isConnected()) return current;
  shared = launchChromium();
  return shared;
}

export const screenshotDir = join(process.cwd(), 'test-results', 'screenshots');

/** Saves a full-page screenshot under test-results/screenshots/<name>.png for people to look at. */
export async function screenshot(page: Page, name: string) {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
}

/**
 * Browser mode as `npm start` runs it (real core, real database file, built web UI from dist/, or from
 * E2E_WEB_ROOT when several people build at once) and a
 * Chromium page opened on the link with the token.
 */
export async function openBrowserMode(options: { locale?: string; appOptions?: Partial<AppOptions>; firstScreen?: 'auto' | 'today' | 'orders'; dataDir?: string } = {}) {
  // a data folder of the test's choosing (a small disk), else a new temporary one
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'shipdesk-e2e-'));
  const running = await startBrowserMode(
    { port: 0, dataDir, tokens: ['e2e-token-12345'], webRoot: process.env.E2E_WEB_ROOT } /* unset: the default dist/ that npm start serves */,
    { log: silentLogger, ...options.appOptions },
  );
  const browser = await sharedChromium();
  const context = await browser.newContext({ locale: options.locale ?? 'en-US', viewport: { width: 1366, height: 860 } });
  // A window opens on "Today" once the shop has orders (firstScreen 'auto'); tests about other screens
  // start on the orders list unless they ask, as a shop that chose it in the settings would.
  await context.addInitScript((screen) => {
    try {
      if (!localStorage.getItem('shipdesk.firstScreen')) localStorage.setItem('shipdesk.firstScreen', screen);
    } catch {
      // a document without storage of its own (about:blank, a data: page a test opens): nothing to choose there
    }
  }, options.firstScreen ?? 'orders');
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(running.uiUrl);
  return {
    page,
    /** The shared Chromium: a test that opens another context here closes it itself. */
    browser,
    running,
    dataDir,
    /** Uncaught errors in the page so far. */
    pageErrors: () => errors,
    async close() {
      await context.close();
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

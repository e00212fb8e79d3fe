import { chromium, type Browser, type Page } from 'playwright-core';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildWebUi, startServe } from '../lib/serve';
import { percentile } from '../lib/stats';
import { Skip, type Benchmark, type BenchContext } from '../lib/report';
import { seededShopToken } from '../lib/seeded-dirs';

const token = seededShopToken;
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface Probe {
  firstRowAt: number | null;
  t0: number | null;
  echoAt: number | null;
}

// The page-side code is plain JavaScript text: tsx compiles functions of this file with helpers
// (`__name`) that do not exist in the page.

/**
 * Runs in the page before its scripts: notes when the first order row is on screen (the frame after
 * it entered the DOM) and, per keystroke, when the key went in and when the box showed it.
 */
const installProbe = `(() => {
  const b = (window.__bench = { firstRowAt: null, t0: null, echoAt: null });
  const afterPaint = (then) => requestAnimationFrame(() => setTimeout(() => then(performance.now()), 0));
  const observer = new MutationObserver(() => {
    if (b.firstRowAt === null && document.querySelector('[data-testid="order-row"]')) {
      observer.disconnect();
      afterPaint((t) => { if (b.firstRowAt === null) b.firstRowAt = t; });
    }
  });
  observer.observe(document, { childList: true, subtree: true });
  const start = (e) => { if (b.t0 === null) b.t0 = e.timeStamp; };
  addEventListener('keydown', start, true);
  addEventListener('beforeinput', start, true);
  addEventListener('input', (e) => {
    start(e);
    afterPaint((t) => { if (b.echoAt === null) b.echoAt = t; });
  }, true);
})()`;

/** In the page: waits until the rows all contain the query (or the empty state shows), then for a painted frame. */
const rowsReflect = (query: string) => `new Promise((resolve, reject) => {
  const q = ${JSON.stringify(query.toLowerCase())};
  // What a row says, tooltips included (the phone may sit in a cell's title).
  const text = (r) => ((r.textContent || '') + ' ' + [...r.querySelectorAll('[title]')].map((e) => e.getAttribute('title')).join(' ')).toLowerCase();
  const matches = () => {
    if (document.querySelector('[data-testid="orders-empty"]')) return true;
    const rows = [...document.querySelectorAll('[data-testid="order-row"]')];
    return rows.length > 0 && rows.every((r) => text(r).includes(q));
  };
  const started = performance.now();
  const check = () => {
    if (matches()) requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0));
    else if (performance.now() - started > 10000) {
      const odd = [...document.querySelectorAll('[data-testid="order-row"]')].find((r) => !text(r).includes(q));
      reject(new Error('the table never showed rows matching ' + q + '; a row shows: ' + (odd ? text(odd) : 'no rows')));
    }
    else requestAnimationFrame(check);
  };
  check();
})`;

const readProbe = `window.__bench`;
const firstRowShown = `new Promise((resolve, reject) => {
  const started = performance.now();
  const timer = setInterval(() => {
    if (window.__bench.firstRowAt !== null) { clearInterval(timer); resolve(true); }
    else if (performance.now() - started > 30000) { clearInterval(timer); reject(new Error('timeout after 30 s')); }
  }, 50);
})`;
const resetProbe = `(() => { window.__bench.t0 = null; window.__bench.echoAt = null; })()`;
// Where the first rows' time went: when the first list call left and how long it took (resource timing).
const paintTimes = `(() => {
  const list = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/app/commands/orders.list'));
  return {
    firstRowsMs: window.__bench.firstRowAt,
    fcpMs: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    listCallStartMs: list ? list.startTime : NaN,
    listCallMs: list ? list.responseEnd - list.startTime : NaN,
  };
})()`;

const isListCall = (search: string) => (r: { url(): string; request(): { postData(): string | null } }) => {
  if (!r.url().endsWith('/app/commands/orders.list')) return false;
  try {
    return ((JSON.parse(r.request().postData() ?? '{}') as { search?: string }).search ?? '') === search;
  } catch {
    return false;
  }
};

async function newPage(browser: Browser) {
  const context = await browser.newContext({ locale: 'ru-RU', viewport: { width: 1366, height: 860 } });
  await context.addInitScript({ content: installProbe });
  // What is measured is the orders list: the window opens on it, as for a shop that chose it over "Today".
  await context.addInitScript(() => localStorage.setItem('shipdesk.firstScreen', 'orders'));
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { page, context, errors };
}

/**
 * BENCH_UI_PROF=<dir>: a CPU profile of the page (Chromium's profiler over CDP) while it does `work`,
 * written as <dir>/<label>.cpuprofile for bench/tools/profile-summary.ts.
 */
async function profiledPage<T>(page: Page, label: string, work: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_UI_PROF;
  if (!dir) return work();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await cdp.send('Profiler.stop');
    writeFileSync(join(dir, `${label}.cpuprofile`), JSON.stringify(profile));
    await cdp.detach();
  }
}

/** Opens the orders list in a fresh browser context; ms from navigation start to the first painted row. */
async function timeFirstRows(browser: Browser, url: string, label?: string) {
  const { page, context, errors } = await newPage(browser);
  try {
    const open = async () => {
      await page.goto(url);
      // A cheap check every 50 ms: Playwright's locator polling would compete with the page for its main thread.
      await page.evaluate(firstRowShown).catch((error: Error) => {
        throw new Error(`no order rows appeared (${error.message.split('\n')[0]})${errors.length ? `; page errors: ${errors.join('; ')}` : ''}`);
      });
    };
    await (label ? profiledPage(page, label, open) : open());
    return (await page.evaluate(paintTimes)) as { firstRowsMs: number; fcpMs: number; listCallStartMs: number; listCallMs: number };
  } finally {
    await context.close();
  }
}

/**
 * Types the words into the search box one key at a time. For each key: from the key going in to the
 * painted frame where the table shows that query's rows (the answer to the list call for exactly that
 * text has come back), and to the frame where the box shows the character.
 */
async function timeKeystrokes(page: Page, words: string[]) {
  const search = page.getByTestId('search-input');
  await search.click();
  const results: number[] = [];
  const echoes: number[] = [];
  const calls: number[] = [];
  for (const word of words) {
    for (let i = 1; i <= word.length; i++) {
      const query = word.slice(0, i);
      await page.evaluate(resetProbe);
      const answered = page.waitForResponse(isListCall(query), { timeout: 30_000 });
      await page.keyboard.type(word[i - 1]);
      const response = await answered;
      await response.finished();
      const timing = response.request().timing();
      calls.push(timing.responseEnd);
      const shownAt = (await page.evaluate(rowsReflect(query))) as number;
      const probe = (await page.evaluate(readProbe)) as Probe;
      if (probe.t0 === null) throw new Error('the keystroke was not seen by the page');
      results.push(shownAt - probe.t0);
      if (probe.echoAt !== null) echoes.push(probe.echoAt - probe.t0);
      await page.waitForTimeout(50);
    }
    // Back to the whole list before the next word (Escape clears at once); not measured.
    const cleared = page.waitForResponse(isListCall(''), { timeout: 30_000 });
    await page.keyboard.press('Escape');
    await cleared;
    await page.waitForTimeout(100);
  }
  return { results, echoes, calls };
}

async function measure(ctx: BenchContext, browser: Browser, webRoot: string, orders: number, loads: number, words: string[]) {
  const data = await ctx.seededOrdersDir(orders, token);
  const serve = await startServe(data.dir, token, webRoot);
  try {
    if (!serve.uiUrl) throw new Error('serve printed no UI link');
    const firstRows: number[] = [];
    const fcp: number[] = [];
    const listStart: number[] = [];
    const listCall: number[] = [];
    await timeFirstRows(browser, serve.uiUrl); // warms the server's first queries and the disk cache
    for (let i = 0; i < loads; i++) {
      const t = await timeFirstRows(browser, serve.uiUrl, i === 0 ? `ui-open-${orders}` : undefined);
      firstRows.push(t.firstRowsMs);
      fcp.push(t.fcpMs);
      listStart.push(t.listCallStartMs);
      listCall.push(t.listCallMs);
    }
    const { page, context } = await newPage(browser);
    try {
      await page.goto(serve.uiUrl);
      await page.locator('[data-testid="order-row"]').first().waitFor({ timeout: 30_000 });
      const keys = await profiledPage(page, `ui-search-${orders}`, () => timeKeystrokes(page, words));
      return {
        firstRowsMs: percentile(firstRows, 50),
        firstRowsWorstMs: Math.max(...firstRows),
        fcpMs: percentile(fcp, 50),
        firstListCallStartMs: percentile(listStart, 50),
        firstListCallMs: percentile(listCall, 50),
        keystrokeP50Ms: percentile(keys.results, 50),
        keystrokeP95Ms: percentile(keys.results, 95),
        echoP95Ms: percentile(keys.echoes, 95),
        searchCallP95Ms: percentile(keys.calls, 95),
        keystrokes: keys.results.length,
      };
    } finally {
      await context.close();
    }
  } finally {
    await serve.stop();
    data.remove();
  }
}

/**
 * The orders list in Chromium (browser mode, the renderer built from the current sources) on a database
 * of 100,000 orders: first rows after opening, and search-keystroke latency. Baseline: the same on
 * a shop with 100 orders.
 */
export const uiBench: Benchmark = {
  name: 'ui',
  title: 'orders list in Chromium, 100,000 orders: time to first rows, search-keystroke latency p95, against 100 orders',
  async run(ctx) {
    if (!existsSync(chromiumPath)) throw new Skip(`no Chromium at ${chromiumPath} (apt-get install chromium)`);
    const orders = ctx.quick ? 2_000 : 100_000;
    const loads = ctx.quick ? 1 : 5;
    // A client number, a surname, phone digits, a tracking number: what a shop types to find an order.
    const words = ctx.quick ? ['0421', 'Смир'] : ['04217', 'Смирнова', '9161', 'SBE00007', '5550'];
    ctx.log('ui: building the web UI');
    const ui = buildWebUi(Boolean(process.env.BENCH_UI_PROF)); // profiling: readable function names
    const browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      ctx.log(`ui: ${orders} orders`);
      const ours = await measure(ctx, browser, ui.dir, orders, loads, words);
      ctx.log('ui: baseline, 100 orders');
      const base = await measure(ctx, browser, ui.dir, 100, loads, words);
      return {
        params: { orders, pageLoads: loads, keystrokes: ours.keystrokes, words: words.join(' '), viewport: '1366x860' },
        figures: ours,
        baseline: { what: 'the same page and keystrokes on a 100-order database', ...base },
        ratio: ours.keystrokeP95Ms / base.keystrokeP95Ms,
        ratioOf: 'keystroke p95 ÷ keystroke p95 with 100 orders',
        goals: [
          { figure: 'firstRowsMs', op: '<=', limit: 1000 },
          { figure: 'keystrokeP95Ms', op: '<=', limit: 150 },
        ],
      };
    } finally {
      await browser.close();
      ui.remove();
    }
  },
};

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeFileSync } from 'node:fs';
import { benchTempDir, profileArgs, repoRoot } from '../lib/child';
import { ownerSessionIn } from '../lib/serve';
import { percentile } from '../lib/stats';
import type { Benchmark } from '../lib/report';
import { seededShopToken } from '../lib/seeded-dirs';

const token = seededShopToken;

interface StartTiming {
  /** Process start to the "Local API" line (the port is known). */
  listenMs: number;
  /** Process start to the first successful authenticated answer. */
  answerMs: number;
}

/**
 * Spawns a server process and times it from spawn to its first successful answer. The process says its
 * port on stdout (`Local API: http://127.0.0.1:<port>/v1`, as serve does); then we ask until a 200 comes.
 * `request` also gets what the process printed up to then (serve's owner link is in it).
 */
async function timeStart(args: string[], request: (base: string, printed: string) => Promise<Response>, env: NodeJS.ProcessEnv = {}): Promise<StartTiming> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const base = await new Promise<string>((resolve, reject) => {
      const onData = (d: Buffer) => {
        output += d;
        const m = /Local API: (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(output);
        if (m) resolve(m[1]);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', (d: Buffer) => (output += d));
      void exited.then((code) => reject(new Error(`exited with ${code} before listening:\n${output.slice(-3000)}`)));
      setTimeout(() => reject(new Error(`no "Local API" line in 60 s:\n${output.slice(-3000)}`)), 60_000).unref();
    });
    const listenMs = performance.now() - started;
    for (;;) {
      try {
        const res = await request(base, output);
        await res.arrayBuffer();
        if (res.ok) break;
        if (res.status !== 503) throw new Error(`answered ${res.status}`);
      } catch (error) {
        if (performance.now() - started > 60_000) throw error;
        await new Promise((r) => setTimeout(r, 2));
      }
    }
    return { listenMs, answerMs: performance.now() - started };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const bareServer = `
const http = require('node:http');
const server = http.createServer((req, res) => { res.setHeader('content-type', 'application/json'); res.end('{"ok":true}'); });
server.listen(0, '127.0.0.1', () => console.log('Local API: http://127.0.0.1:' + server.address().port + '/v1'));
process.on('SIGTERM', () => process.exit(0));
`;

/**
 * The cheap authenticated call the first answer is taken from (browser-mode command transport), signed
 * in as the page opened from serve's link is: the owner session in `#session=`.
 */
const askProviders = (base: string, printed: string) => {
  const session = ownerSessionIn(printed);
  if (!session) throw new Error(`serve printed no owner link (#session=):\n${printed.slice(-3000)}`);
  return fetch(`${base}/app/commands/providers.list`, { method: 'POST', headers: { authorization: `Session ${session}`, 'content-type': 'application/json' }, body: '{}' });
};

/** serve prints its owner link only when it has a web UI to open: a one-page one stands in for the build. */
function placeholderWebRoot() {
  const root = benchTempDir('startup-web');
  writeFileSync(join(root.dir, 'index.html'), '<!doctype html><title>ShipDesk</title>');
  return root;
}

/**
 * Serve mode on a database of 100,000 orders, as `npm run serve` starts it (scripts/serve.mjs: the
 * bundled serve, its freshness checked): from process start to the first successful answer to an
 * authenticated request. Baseline: a bare Node process that starts an HTTP server and answers.
 */
export const startupBench: Benchmark = {
  name: 'startup',
  title: 'serve on a 100,000-order database: process start → first authenticated answer, against a bare node server',
  async run(ctx) {
    const orders = ctx.quick ? 2_000 : 100_000;
    const runs = ctx.quick ? 1 : 5;
    const data = await ctx.seededOrdersDir(orders, token);
    const web = placeholderWebRoot();
    try {
      const serveFlags = ['--port', '0', '--data-dir', data.dir, '--token', token, '--web-root', web.dir];
      // What `npm run serve` runs: the bundle, built beforehand when the sources are newer (timed apart).
      const built = performance.now();
      const { ensureServeBundle } = (await import(pathToFileURL(join(repoRoot, 'scripts/serve-bundle.mjs')).href)) as { ensureServeBundle(): Promise<string> };
      await ensureServeBundle();
      const bundleCheckMs = performance.now() - built;
      const serveArgs = [...profileArgs(), join(repoRoot, 'scripts/serve.mjs'), ...serveFlags];
      const ours: StartTiming[] = [];
      const bare: StartTiming[] = [];
      const bareTsx: StartTiming[] = [];
      const fromSource: StartTiming[] = [];
      // Interleaved, so a busy moment of the machine hits both alike; one unmeasured start warms the disk cache.
      await timeStart(serveArgs, askProviders);
      for (let i = 0; i < runs; i++) {
        ours.push(await timeStart(serveArgs, askProviders));
        bare.push(await timeStart(['-e', bareServer], (base) => fetch(`${base}/`)));
        bareTsx.push(await timeStart(['--import', 'tsx', '-e', bareServer], (base) => fetch(`${base}/`)));
        fromSource.push(await timeStart([...profileArgs(), '--import', 'tsx', 'electron/serve.ts', ...serveFlags], askProviders));
        ctx.log(`startup run ${i + 1}/${runs}: serve ${Math.round(ours[i].answerMs)} ms (from source ${Math.round(fromSource[i].answerMs)} ms), bare node ${Math.round(bare[i].answerMs)} ms`);
      }
      const median = (list: StartTiming[], key: keyof StartTiming) => percentile(list.map((t) => t[key]), 50);
      const startupMs = median(ours, 'answerMs');
      const bareMs = median(bare, 'answerMs');
      return {
        params: { orders, runs, endpoint: 'POST /app/commands/providers.list (Authorization: Session <owner link secret>)' },
        figures: {
          startupMs,
          worstMs: Math.max(...ours.map((t) => t.answerMs)),
          listenMs: median(ours, 'listenMs'),
          fromSourceMs: median(fromSource, 'answerMs'),
          bundleCheckMs,
        },
        baseline: {
          what: 'bare node http server (node -e), same measurement; bareTsxMs: the same under --import tsx (figures.fromSourceMs: serve.ts through tsx, as before the bundle; bundleCheckMs: the bundle checked, and built if the sources were newer, before the timed starts)',
          startupMs: bareMs,
          bareTsxMs: median(bareTsx, 'answerMs'),
        },
        ratio: startupMs / bareMs,
        ratioOf: 'serve ms ÷ bare node ms (medians)',
        goals: [{ figure: 'startupMs', op: '<', limit: 2000 }],
      };
    } finally {
      web.remove();
      data.remove();
    }
  },
};

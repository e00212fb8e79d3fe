import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { benchTempDir, profileArgs, repoRoot } from '../lib/child';
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
 */
async function timeStart(args: string[], request: (base: string) => Promise<Response>, env: NodeJS.ProcessEnv = {}): Promise<StartTiming> {
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
        const res = await request(base);
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
 * Diagnostics: the same serve bundled by esbuild the way the Electron build bundles main.ts (better-sqlite3
 * and exceljs left in node_modules, migrations copied beside it), so the cost of loading the sources
 * through tsx can be told apart from the app's own start.
 */
const requireFromRepo = createRequire(join(repoRoot, 'package.json'));

async function bundleServe() {
  const out = benchTempDir('serve-bundle');
  const { build } = await import('esbuild');
  await build({
    entryPoints: [join(repoRoot, 'electron/serve.ts')],
    outfile: join(out.dir, 'serve.mjs'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    logLevel: 'error',
    external: ['electron'],
    // The bundle lives in a temp folder: point the packages left outside it at the repo's node_modules.
    plugins: [
      {
        name: 'bench-externals',
        setup(b) {
          b.onResolve({ filter: /^(better-sqlite3|exceljs)$/ }, (args) => ({ path: requireFromRepo.resolve(args.path), external: true }));
        },
      },
    ],
    banner: { js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);" },
  });
  const migrations = join(repoRoot, 'electron/core/store/migrations');
  mkdirSync(join(out.dir, 'migrations'));
  for (const name of readdirSync(migrations).filter((n) => n.endsWith('.sql'))) copyFileSync(join(migrations, name), join(out.dir, 'migrations', name));
  return { file: join(out.dir, 'serve.mjs'), remove: out.remove };
}

/** The cheap authenticated call the first answer is taken from (browser-mode command transport). */
const askProviders = (base: string) =>
  fetch(`${base}/app/commands/providers.list`, { method: 'POST', headers: { authorization: token, 'content-type': 'application/json' }, body: '{}' });

/**
 * Serve mode on a database of 100,000 orders: from process start to the first successful answer to an
 * authenticated request. Baseline: a bare Node process that starts an HTTP server and answers.
 */
export const startupBench: Benchmark = {
  name: 'startup',
  title: 'serve on a 100,000-order database: process start → first authenticated answer, against a bare node server',
  async run(ctx) {
    const orders = ctx.quick ? 2_000 : 100_000;
    const runs = ctx.quick ? 1 : 5;
    const data = await ctx.seededOrdersDir(orders, token);
    let bundle: Awaited<ReturnType<typeof bundleServe>> | null = null;
    try {
      const serveArgs = [...profileArgs(), '--import', 'tsx', 'electron/serve.ts', '--port', '0', '--data-dir', data.dir, '--token', token];
      const ours: StartTiming[] = [];
      const bare: StartTiming[] = [];
      const bareTsx: StartTiming[] = [];
      const bundled: StartTiming[] = [];
      bundle = await bundleServe().catch((error: Error) => {
        ctx.log(`startup: no bundled serve (${error.message.split('\n')[0]})`);
        return null;
      });
      // Interleaved, so a busy moment of the machine hits both alike; one unmeasured start warms the disk cache.
      await timeStart(serveArgs, askProviders);
      for (let i = 0; i < runs; i++) {
        ours.push(await timeStart(serveArgs, askProviders));
        bare.push(await timeStart(['-e', bareServer], (base) => fetch(`${base}/`)));
        bareTsx.push(await timeStart(['--import', 'tsx', '-e', bareServer], (base) => fetch(`${base}/`)));
        if (bundle) bundled.push(await timeStart([...profileArgs(), bundle.file, '--port', '0', '--data-dir', data.dir, '--token', token], askProviders));
        ctx.log(`startup run ${i + 1}/${runs}: serve ${Math.round(ours[i].answerMs)} ms, bare node ${Math.round(bare[i].answerMs)} ms`);
      }
      const median = (list: StartTiming[], key: keyof StartTiming) => percentile(list.map((t) => t[key]), 50);
      const startupMs = median(ours, 'answerMs');
      const bareMs = median(bare, 'answerMs');
      return {
        params: { orders, runs, endpoint: 'POST /app/commands/providers.list' },
        figures: {
          startupMs,
          worstMs: Math.max(...ours.map((t) => t.answerMs)),
          listenMs: median(ours, 'listenMs'),
          ...(bundled.length ? { bundledServeMs: median(bundled, 'answerMs') } : {}),
        },
        baseline: {
          what: 'bare node http server (node -e), same measurement; bareTsxMs: the same under --import tsx (figures.bundledServeMs: serve bundled by esbuild, no tsx)',
          startupMs: bareMs,
          bareTsxMs: median(bareTsx, 'answerMs'),
        },
        ratio: startupMs / bareMs,
        ratioOf: 'serve ms ÷ bare node ms (medians)',
        goals: [{ figure: 'startupMs', op: '<', limit: 2000 }],
      };
    } finally {
      data.remove();
      bundle?.remove();
    }
  },
};

import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { webUiDir, webUiIsCurrent } from '../../scripts/web-ui.mjs';
import { benchTempDir, profileArgs, repoRoot } from './child';

export interface ServeRun {
  base: string;
  /** The owner's link (`…/#session=<secret>`), as serve prints it (only with a web UI). */
  uiUrl: string | undefined;
  pid: number;
  stop(): Promise<void>;
}

/** The owner's link in what serve printed: `Open http://…/#session=<secret>` (printed only with a web UI). */
export const ownerLinkIn = (printed: string) => /Open (http:\/\/\S+#session=\S+)/.exec(printed)?.[1];

/** The owner session secret of that link, for `Authorization: Session <secret>` on /app/*. */
export function ownerSessionIn(printed: string) {
  const link = ownerLinkIn(printed);
  return link ? decodeURIComponent(new URL(link).hash.slice('#session='.length)) : undefined;
}

/** `node scripts/serve.mjs …` as `npm run serve` starts it (the bundled serve); resolves once it printed its URL. */
export async function startServe(dataDir: string, token: string, webRoot?: string, nodeArgs: string[] = []): Promise<ServeRun> {
  const args = [...profileArgs(), ...nodeArgs, 'scripts/serve.mjs', '--port', '0', '--data-dir', dataDir, '--token', token];
  if (webRoot) args.push('--web-root', webRoot);
  const child = spawn(process.execPath, args, { cwd: repoRoot, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (d: Buffer) => {
    output += d;
    if (process.env.BENCH_VERBOSE) process.stderr.write(d);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      output += d;
      const m = /Local API: (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(output);
      if (m) resolve(m[1]);
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}:\n${output.slice(-3000)}`)));
    setTimeout(() => reject(new Error(`serve did not start in 120 s:\n${output.slice(-3000)}`)), 120_000).unref();
  });
  return {
    base,
    uiUrl: ownerLinkIn(output),
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The web UI of the current sources: dist/ when it is current (npm test builds it before the tests, so CI's quick run
 * builds nothing; only read here), else built into a temp folder (not dist/, which the browser tests may be reading),
 * so the benchmark measures the renderer as it is now. `readable` (profiling) always builds, unminified.
 */
export function buildWebUi(readable = false) {
  if (!readable && webUiIsCurrent()) return { dir: webUiDir, remove: () => undefined };
  const out = benchTempDir('ui');
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  const result = spawnSync(npx, ['vite', 'build', '--outDir', join(out.dir, 'web'), '--emptyOutDir', '--logLevel', 'warn', ...(readable ? ['--minify', 'false'] : [])], { cwd: repoRoot, encoding: 'utf8' });
  if (result.status !== 0) {
    out.remove();
    throw new Error(`vite build failed:\n${result.stdout}\n${result.stderr}`);
  }
  return { dir: join(out.dir, 'web'), remove: out.remove };
}

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root (bench/ sits in it). */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** A fresh temp folder for one benchmark; `remove` deletes it. */
export function benchTempDir(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), `shipdesk-bench-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Loads a project module by its path from the repo root if it exists, or returns null. The path is
 * computed, so the benchmarks build before the module exists; a missing piece becomes a skip.
 */
export async function importIfExists<T = Record<string, unknown>>(relativePath: string): Promise<T | null> {
  const file = join(repoRoot, relativePath);
  if (!existsSync(file)) return null;
  return (await import(pathToFileURL(file).href)) as T;
}

export const fileExists = (relativePath: string) => existsSync(join(repoRoot, relativePath));
export const readRepoFile = (relativePath: string) => readFileSync(join(repoRoot, relativePath), 'utf8');

/** Peak resident set size of a running process (VmHWM, Linux), in bytes; 0 where /proc is missing. */
export function peakRssOf(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * BENCH_CPU_PROF=<dir>: every process the benchmarks start writes a V8 CPU profile there
 * (`node --cpu-prof`); `npx tsx bench/tools/profile-summary.ts <file>` reads one. BENCH_NODE_ARGS: more
 * flags for those processes (`--trace-gc`; with BENCH_VERBOSE=1 to see what they print).
 */
export function profileArgs(): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  const extra = process.env.BENCH_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
  return [...(dir ? ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '200'] : []), ...extra];
}

export interface TsChild<Message> {
  child: ChildProcess;
  /** The next IPC message that satisfies `accept` (default: any). */
  next<M extends Message = Message>(accept?: (m: Message) => boolean, timeoutMs?: number): Promise<M>;
  send(message: unknown): void;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Everything the child printed (kept for error messages). */
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
  /** Lets it exit on its own (a CPU profile is written at exit), killing it after `graceMs`. */
  finish(graceMs?: number): Promise<number | null>;
}

/**
 * Runs a TypeScript file of bench/ in its own Node process (through tsx) with an IPC channel.
 * Its prints go to our stderr, so the runner's stdout keeps only JSON lines.
 */
export function spawnTs<Message = unknown>(file: string, args: string[] = [], options: { nodeArgs?: string[]; env?: NodeJS.ProcessEnv; echo?: boolean } = {}): TsChild<Message> {
  const child = spawn(process.execPath, [...profileArgs(), ...(options.nodeArgs ?? []), '--import', 'tsx', join(repoRoot, file), ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  const echo = options.echo ?? Boolean(process.env.BENCH_VERBOSE);
  const onData = (d: Buffer) => {
    output += d;
    if (output.length > 200_000) output = output.slice(-100_000);
    if (echo) process.stderr.write(d);
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const queue: Message[] = [];
  const waiters: { accept: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];
  child.on('message', (m: Message) => {
    const i = waiters.findIndex((w) => w.accept(m));
    if (i >= 0) waiters.splice(i, 1)[0].resolve(m);
    else queue.push(m);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    send: (message) => child.send(message as never),
    exited,
    output: () => output,
    next<M extends Message = Message>(accept: (m: Message) => boolean = () => true, timeoutMs = 600_000): Promise<M> {
      const i = queue.findIndex(accept);
      if (i >= 0) return Promise.resolve(queue.splice(i, 1)[0] as M);
      return new Promise<M>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${file}: no answer in ${timeoutMs} ms\n${output.slice(-4000)}`)), timeoutMs);
        const waiter = {
          accept,
          resolve: (m: Message) => {
            clearTimeout(timer);
            resolve(m as M);
          },
        };
        waiters.push(waiter);
        void exited.then((code) => {
          clearTimeout(timer);
          const at = waiters.indexOf(waiter);
          if (at >= 0) {
            waiters.splice(at, 1);
            reject(new Error(`${file} exited with ${code} before answering:\n${output.slice(-4000)}`));
          }
        });
      });
    },
    kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    async finish(graceMs = 30_000) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      return this.kill();
    },
  };
}

/** Inside a child: sends one message to the parent and waits until it is flushed. */
export function sendToParent(message: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!process.send) {
      reject(new Error('not started by the bench runner (no IPC channel)'));
      return;
    }
    process.send(message, undefined, {}, (error) => (error ? reject(error) : resolve()));
  });
}

export interface BenchServer {
  base: string;
  pid: number;
  /**
   * Runs `work` and, when BENCH_PHASE_PROF=<dir> is set, records a CPU profile of the server during it
   * as <dir>/<label>.cpuprofile (read it with bench/tools/profile-summary.ts).
   */
  profiled<T>(label: string, work: () => Promise<T>): Promise<T>;
  /** Closes the server and the database; says how many orders it holds and how many jobs are left. */
  stop(): Promise<{ orders: number; pendingOutbox: number }>;
}

/**
 * Starts bench/workers/server.ts (core + all routes + the bare route) on a free port, in its own process;
 * its data in `database` (a PostgreSQL URL) when given, else in the SQLite file of `dataDir`.
 */
export async function startBenchServer(dataDir: string, token: string, nodeArgs: string[] = [], database?: string): Promise<BenchServer> {
  type Msg = { type: 'ready'; port: number } | { type: 'stopped'; orders: number; pendingOutbox: number } | { type: 'profiling' } | { type: 'profiled'; file: string };
  const server = spawnTs<Msg>('bench/workers/server.ts', ['--data-dir', dataDir, '--token', token, ...(database ? ['--database', database] : [])], { nodeArgs });
  const ready = await server.next<{ type: 'ready'; port: number }>((m) => m.type === 'ready', 120_000);
  return {
    base: `http://127.0.0.1:${ready.port}`,
    pid: server.child.pid!,
    async profiled(label, work) {
      const dir = process.env.BENCH_PHASE_PROF;
      if (!dir) return work();
      server.send({ type: 'profile-start' });
      await server.next((m) => m.type === 'profiling');
      try {
        return await work();
      } finally {
        server.send({ type: 'profile-stop', file: join(dir, `${label}.cpuprofile`) });
        await server.next((m) => m.type === 'profiled');
      }
    },
    async stop() {
      server.send({ type: 'stop' });
      const stopped = await server.next<{ type: 'stopped'; orders: number; pendingOutbox: number }>((m) => m.type === 'stopped', 120_000);
      await server.exited;
      return { orders: stopped.orders, pendingOutbox: stopped.pendingOutbox };
    },
  };
}

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { testDatabase } from './test-app';

export interface ServeProcess {
  child: ChildProcessWithoutNullStreams;
  /** Everything the process printed so far. */
  output(): string;
  /** The base URL once it listens. */
  base: string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts `electron/serve.ts` as a real process (as `npm run serve` does) and waits for its URL. On the PostgreSQL test
 * engine (test-app.ts `testEngine`) a process not given `--database` gets a fresh database of its own, dropped once it
 * has stopped (or failed to start).
 */
export async function startServeProcess(args: string[], timeoutMs = 60_000): Promise<ServeProcess> {
  const database = args.includes('--database') ? { url: undefined, drop: async () => undefined } : await testDatabase();
  try {
    const serve = await spawnServe(database.url ? [...args, '--database', database.url] : args, timeoutMs);
    return {
      ...serve,
      async stop(signal) {
        const code = await serve.stop(signal);
        await database.drop();
        return code;
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

async function spawnServe(args: string[], timeoutMs: number): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/serve.ts', ...args], { cwd: process.cwd(), env: { ...process.env } });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const base = await new Promise<string>((resolve, reject) => {
    // One that never says it is ready is stopped, so it does not outlive its test (workers are kept between files).
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start in time:\n${output}`));
    }, timeoutMs);
    const check = () => {
      const m = /Local API: (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', check);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${output}`));
    });
  });
  return {
    child,
    base,
    output: () => output,
    stop(signal = 'SIGTERM') {
      child.kill(signal);
      return exited;
    },
  };
}

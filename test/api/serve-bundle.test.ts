import { spawn } from 'node:child_process';
import { orderPayload } from '../helpers/payloads';
import { tempDataDir } from '../helpers/test-app';

/** `npm run serve` as a shop runs it: node scripts/serve.mjs (the bundled serve, built when the sources are newer). */
async function startBundledServe(args: string[]) {
  const child = spawn(process.execPath, ['scripts/serve.mjs', ...args], { cwd: process.cwd(), env: { ...process.env } });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /Local API: (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(output);
      if (m) resolve(m[1]);
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
  });
  return { base, stop: () => (child.kill('SIGTERM'), exited) };
}

describe('npm run serve (the bundled server)', () => {
  it('finds its migrations and the sandbox reference data beside the sources, takes orders and closes cleanly', async () => {
    const data = tempDataDir();
    const serve = await startBundledServe(['--port', '0', '--data-dir', data.dir, '--token', 'bundle-token-1']);
    const headers = { Authorization: 'bundle-token-1', 'Content-Type': 'application/json' };
    const created = await fetch(`${serve.base}/orders`, { method: 'POST', headers, body: JSON.stringify(orderPayload('BUNDLE-1')) });
    expect(created.status).toBe(200);
    const points = await fetch(`${serve.base}/v1/lists/points?filter=${encodeURIComponent('city=Москва;providerKey=sandbox-express')}&limit=5`, { headers });
    expect(points.status).toBe(200);
    expect(await points.text()).toContain('"city":"Москва"');
    expect(await serve.stop()).toBe(0);
    data.remove();
  }, 90_000);
});

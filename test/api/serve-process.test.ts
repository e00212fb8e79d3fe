import Database from 'better-sqlite3';
import { join } from 'node:path';
import { orderPayload } from '../helpers/payloads';
import { startServeProcess } from '../helpers/serve-process';
import { tempDataDir, testEngine } from '../helpers/test-app';

const post = (base: string, token: string, body: unknown) =>
  fetch(`${base}/orders`, { method: 'POST', headers: { Authorization: token, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

describe('npm run serve (headless browser mode)', () => {
  it('creates a company for each --token, serves the interface, and loses nothing on SIGTERM', async () => {
    const data = tempDataDir();
    const serve = await startServeProcess(['--port', '0', '--data-dir', data.dir, '--token', 'shop-token-1', '--token', 'shop-token-2']);
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => post(serve.base, i % 2 ? 'shop-token-1' : 'shop-token-2', orderPayload(`SIG-${i}`))));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    // the start line names what createApp opened: the data folder's file (on the PostgreSQL test engine, the server without its password)
    const started = serve.output().split('\n').find((line) => line.startsWith('ShipDesk is running'));
    expect(started).toMatch(testEngine === 'postgres' ? /^ShipDesk is running in browser mode \(data: PostgreSQL postgres:\/\/[^:@/]+@/ : `(data: ${join(data.dir, 'shipdesk.db')})`);
    expect(await serve.stop('SIGTERM')).toBe(0);

    const db = new Database(join(data.dir, 'shipdesk.db'), { readonly: true });
    const counts = db.prepare('SELECT c.api_token AS token, COUNT(o.id) AS n FROM companies c JOIN orders o ON o.company_id = c.id GROUP BY c.id ORDER BY token').all();
    db.close();
    expect(counts).toEqual([{ token: 'shop-token-1', n: 10 }, { token: 'shop-token-2', n: 10 }]);
    data.remove();
  });

  it('without --token creates the shop with a random token, prints it once, and keeps it across restarts', async () => {
    const data = tempDataDir();
    const first = await startServeProcess(['--port', '0', '--data-dir', data.dir]);
    const token = /API token of this shop: (\S+)/.exec(first.output())?.[1];
    expect(token).toMatch(/^[\w-]{20,}$/);
    expect((await post(first.base, token!, orderPayload('RND-1'))).status).toBe(200);
    expect(await first.stop('SIGINT')).toBe(0);

    const second = await startServeProcess(['--port', '0', '--data-dir', data.dir]);
    expect(second.output()).not.toMatch(/API token of this shop/);
    expect((await post(second.base, token!, orderPayload('RND-2'))).status).toBe(200);
    expect(await second.stop()).toBe(0);
    data.remove();
  });

  it('refuses bad arguments with a one-line reason and the usage', async () => {
    await expect(startServeProcess(['--port', 'eighty'])).rejects.toThrow(/--port must be a whole number.*\n.*Usage: npm run serve/s);
  });
});

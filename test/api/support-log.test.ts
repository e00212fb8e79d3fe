import { strFromU8, unzipSync } from 'fflate';
import { sandboxPayload } from '../helpers/sandbox-orders';
import { testEngine } from '../helpers/test-app';
import { startTestServer, type TestServer } from '../helpers/test-server';

/** The log support gets from "Save logs for support", as parsed JSON lines. */
async function savedLog(server: TestServer) {
  const saved = await server.app.dispatch('logs.saveForSupport', await server.app.desktopContext(), {});
  if (!saved.ok) throw new Error(JSON.stringify(saved));
  const { base64 } = saved.value as { base64: string };
  const text = Object.values(unzipSync(Buffer.from(base64, 'base64'))).map((bytes) => strFromU8(bytes)).join('');
  return { text, lines: text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('the support log of a session: a start line, then every call to a delivery service', () => {
  let server: TestServer;
  beforeEach(async () => {
    // The app's own file log in the data folder (the test server's default is a silent one).
    server = await startTestServer({ log: undefined, version: '9.8.7-test' });
  });
  afterEach(async () => server.close());

  it('has the version, data folder and database first, and the sandbox registration of an order made over /v1', async () => {
    const created = await server.call('POST', '/orders', { body: await sandboxPayload(server.app.db, 'sandbox-express', 'LOG-1') });
    expect(created.status, created.text).toBe(200);
    await server.app.outbox.drain();
    const { text, lines } = await savedLog(server);

    const start = lines[0];
    expect(start).toMatchObject({ level: 'info', msg: 'ShipDesk 9.8.7-test starting', version: '9.8.7-test', database: { engine: testEngine === 'postgres' ? 'postgresql' : 'sqlite' } });
    expect(typeof start.dataDir).toBe('string');
    const registered = lines.find((line) => (line.call as { method?: string } | undefined)?.method === 'REGISTER');
    expect(registered).toMatchObject({
      level: 'info', service: 'sandbox-express', orderId: Number(created.json.orderId),
      call: { url: 'sandbox://sandbox-express/register', status: null },
    });
    expect(registered!.call).not.toHaveProperty('error');
    expect(registered!.msg).toMatch(/→ done in \d+ ms$/);
    for (const secret of [server.tokenA, server.shopToken]) expect(text).not.toContain(secret);
    if (testEngine === 'postgres') expect(text).not.toMatch(/postgres:\/\/[^@\s"]*:[^@\s"]+@/); // no password in the server's URL
  });
});

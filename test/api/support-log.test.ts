import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { strFromU8, unzipSync } from 'fflate';
import { ordersWorkbook, sampleOrder, uploadBody } from '../fixtures/xlsx/orders-workbook';
import { orderPayload } from '../helpers/payloads';
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
    expect(start).toMatchObject({ level: 'info', msg: 'ShipDesk 9.8.7-test starting', version: '9.8.7-test' });
    expect(start.database).toMatch(testEngine === 'postgres' ? /^PostgreSQL postgres:\/\/[^:@]+@/ : /shipdesk\.db$/);
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

/** A site on this computer: `/hook` takes webhook calls (200, then 500), `/dl` redirects to `/file`, which serves `workbook`. */
async function startSite(workbook: Buffer) {
  const answers = [200, 500];
  const site = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.startsWith('/hook')) return void res.writeHead(answers.shift() ?? 200).end('ok');
      if (req.url?.startsWith('/dl')) return void res.writeHead(302, { Location: '/file' }).end();
      res.writeHead(200).end(workbook);
    });
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(site.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => site.close(() => resolve())) };
}

describe('webhook calls and file.url downloads are service calls in the log', () => {
  let server: TestServer;
  let site: Awaited<ReturnType<typeof startSite>>;
  let workbook: Awaited<ReturnType<typeof ordersWorkbook>>;
  beforeEach(async () => {
    server = await startTestServer({ log: undefined });
    workbook = await ordersWorkbook([sampleOrder('DL-1')], { itemsNewRow: true });
    site = await startSite(workbook.buffer);
    await server.app.services.settings.update(server.shop, { preferences: { allowLocalWebhooks: true, allowLocalDownloads: true } });
  });
  afterEach(async () => {
    await server.close();
    await site.close();
  });

  const calls = (lines: Record<string, unknown>[], service: string) => lines.filter((line) => line.service === service && line.call);

  it('each webhook POST: address without its secret query value, status, duration, the order and the webhook', async () => {
    const hook = await server.call('POST', '/v1/webhooks', { body: { url: `${site.base}/hook?token=hook-s3cret&shop=7`, type: 'ORDER_STATUS' } });
    expect(hook.status, hook.text).toBe(200);
    const { orderId } = (await server.call('POST', '/v1/orders', { body: orderPayload('WH-LOG-1') })).json;
    await server.app.outbox.drain();
    expect(await server.app.webhookDelivery.drain()).toBe(1); // the first call answered 200, the second 500

    const { text, lines } = await savedLog(server);
    const posts = calls(lines, 'webhook');
    expect(posts.map((line) => (line.call as { status: number }).status)).toEqual([200, 500]);
    expect(posts[0]).toMatchObject({
      level: 'info', companyId: expect.any(Number), orderId: Number(orderId), webhook: hook.json.uuid,
      call: { method: 'POST', url: `${site.base}/hook?token=[redacted]&shop=7`, durationMs: expect.any(Number), attempt: 1 },
    });
    // the failed one is tried again: a warning in the file with its webhook and attempt, not echoed to the terminal
    expect(posts[1]).toMatchObject({ level: 'warn', webhook: hook.json.uuid, fileOnly: true, call: { status: 500, attempt: 1 } });
    expect(text).not.toContain('hook-s3cret');
  });

  it('each GET of a file.url, redirects included, without the link\'s credentials', async () => {
    const body = uploadBody(workbook.buffer, workbook.columnMap, { itemsNewRow: true });
    const res = await server.call('POST', '/orders/upload', { body: { ...body, file: { url: `${site.base.replace('//', '//shop:pa55@')}/dl?api_key=dl-s3cret` } } });
    expect(res.status, res.text).toBe(200);

    const { text, lines } = await savedLog(server);
    const gets = calls(lines, 'file.url');
    expect(gets.map((line) => line.call)).toEqual([
      expect.objectContaining({ method: 'GET', url: `${site.base}/dl?api_key=[redacted]`, status: 302 }),
      expect.objectContaining({ method: 'GET', url: `${site.base}/file`, status: 200 }),
    ]);
    for (const secret of ['pa55', 'dl-s3cret']) expect(text).not.toContain(secret);
  });
});

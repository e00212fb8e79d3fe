import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../electron/core/app';
import { manualClock } from '../../electron/core/clock';
import { silentLogger } from '../../electron/core/logger';
import { orderPayload } from '../helpers/payloads';
import { tempDataDir } from '../helpers/test-app';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * A shop's site on this computer: records every call and answers with the statuses it is told to, then 200;
 * `whileAnswering` runs before each answer (a slow site moves the app's clock on).
 */
async function startSite() {
  const calls: { path: string; headers: IncomingHttpHeaders; raw: string; json: any }[] = [];
  const answers: number[] = [];
  const site = { whileAnswering: () => {} };
  const http: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      calls.push({ path: req.url ?? '', headers: req.headers, raw, json: JSON.parse(raw) });
      site.whileAnswering();
      res.writeHead(answers.shift() ?? 200).end('ok');
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return Object.assign(site, { base, calls, answers, close: () => new Promise<void>((resolve) => http.close(() => resolve())) });
}
type Site = Awaited<ReturnType<typeof startSite>>;

/** What a site does with a call: the HMAC-SHA256 of the body it received, keyed by the secret it was given. */
const signedBy = (secret: string, raw: string) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

let server: TestServer;
let site: Site;
const allowLocal = (allowed: boolean) => server.app.services.settings.update(server.shop, { preferences: { allowLocalWebhooks: allowed } });

beforeEach(async () => {
  server = await startTestServer();
  site = await startSite();
});
afterEach(async () => {
  await server.close();
  await site.close();
});

describe('status webhooks', () => {
  it('the site hears of each status of its company\'s orders, signed with the webhook\'s own secret', async () => {
    await allowLocal(true);
    const hook = await server.call('POST', '/v1/webhooks', { body: { url: `${site.base}/shipdesk/status`, type: 'ORDER_STATUS' } });
    expect(hook.status, hook.text).toBe(200);
    expect(hook.json).toEqual({ uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), url: `${site.base}/shipdesk/status`, type: 'ORDER_STATUS', created: expect.any(String), secret: expect.any(String) });

    const { orderId } = (await server.call('POST', '/v1/orders', { body: orderPayload('WH-1') })).json;
    await server.app.outbox.drain(); // uploading → uploaded at the service
    expect(await server.app.webhookDelivery.drain()).toBe(2);

    expect(site.calls.map((c) => [c.path, c.json.orderInfo.orderId, c.json.orderInfo.clientNumber, c.json.status.key])).toEqual([
      ['/shipdesk/status', orderId, 'WH-1', 'uploading'],
      ['/shipdesk/status', orderId, 'WH-1', 'uploaded'],
    ]);
    for (const call of site.calls) {
      expect(call.json).toMatchObject({ type: 'ORDER_STATUS', webhookUuid: hook.json.uuid, deliveryId: expect.any(Number) });
      expect(call.headers['x-shipdesk-signature']).toBe(signedBy(hook.json.secret, call.raw));
      expect(call.headers['x-shipdesk-signature']).not.toBe(signedBy('another secret', call.raw));
      expect(call.headers['x-shipdesk-delivery']).toBe(String(call.json.deliveryId));
    }
    // Nothing is called twice once the site said 200.
    expect(await server.app.webhookDelivery.drain()).toBe(0);
    expect(site.calls).toHaveLength(2);

    // The same url registered again is the same webhook, with the same secret; GET never shows the secret.
    const again = await server.call('POST', '/v1/webhooks', { body: { url: `${site.base}/shipdesk/status`, type: 'ORDER_STATUS' } });
    expect(again.json).toEqual(hook.json);
    const list = await server.call('GET', '/v1/webhooks');
    expect(list.json.meta).toEqual({ total: 1, offset: 0, limit: 100 });
    expect(list.text).not.toContain(hook.json.secret);
  });

  it('a site that fails is called again after the backoff, and every attempt is listed', async () => {
    await allowLocal(true);
    const hook = (await server.call('POST', '/v1/webhooks', { body: { url: `${site.base}/hook`, type: 'ORDER_STATUS' } })).json;
    site.answers.push(500, 503);
    const { orderId } = (await server.call('POST', '/v1/orders', { body: orderPayload('WH-2') })).json;

    expect(await server.app.webhookDelivery.drain()).toBe(0); // 500
    expect(await server.app.webhookDelivery.drain()).toBe(0); // not due again yet
    expect(site.calls).toHaveLength(1);
    server.clock.advance(30_000);
    expect(await server.app.webhookDelivery.drain()).toBe(0); // 503
    server.clock.advance(119_000);
    expect(await server.app.webhookDelivery.drain()).toBe(0); // the second wait is 2 minutes
    server.clock.advance(1_000);
    expect(await server.app.webhookDelivery.drain()).toBe(1);
    expect(site.calls.map((c) => c.json.deliveryId)).toEqual(Array(3).fill(site.calls[0].json.deliveryId));

    const [row] = (await server.call('GET', '/v1/webhooks')).json.rows;
    expect(row.lastAttempts.map((a: { httpStatus: number; delivered: boolean; orderId: string; statusKey: string }) => [a.httpStatus, a.delivered, a.orderId, a.statusKey])).toEqual([
      [200, true, orderId, 'uploading'],
      [503, false, orderId, 'uploading'],
      [500, false, orderId, 'uploading'],
    ]);
    const page = await server.call('GET', `/v1/webhooks/${hook.uuid}/attempts?limit=1&offset=1`);
    expect(page.json).toEqual({ rows: [expect.objectContaining({ httpStatus: 503 })], meta: { total: 3, offset: 1, limit: 1 } });
  });

  it('a slow site: calls a claim could not cover wait for the next claim without spending an attempt', async () => {
    await allowLocal(true);
    await server.call('POST', '/v1/webhooks', { body: { url: `${site.base}/hook`, type: 'ORDER_STATUS' } });
    for (const clientNumber of ['WH-S1', 'WH-S2']) await server.call('POST', '/v1/orders', { body: orderPayload(clientNumber) });
    await server.app.outbox.drain(); // uploading and uploaded of both: four calls to one site, claimed in one pass
    // Each call takes the site 12 s. A claim ends 30 s after it began and a call may take 10 s: the first two go out,
    // the other two are given back and go out with the next claim, the first of them failing.
    site.whileAnswering = () => server.clock.advance(12_000);
    site.answers.push(200, 200, 500);
    expect(await server.app.webhookDelivery.drain()).toBe(3);
    expect(new Set(site.calls.map((c) => c.json.deliveryId)).size).toBe(4);

    // That failure was its first attempt: it is made again after the first delay (30 s after its claim), not the second's 2 minutes.
    const failed = site.calls[2].json.deliveryId;
    server.clock.advance(30_000);
    expect(await server.app.webhookDelivery.drain()).toBe(1);
    expect(site.calls.map((c) => c.json.deliveryId)).toEqual([...site.calls.slice(0, 4).map((c) => c.json.deliveryId), failed]);
  });

  it('a site that never answers 2xx is given up after the last attempt, with why in each attempt', async () => {
    await allowLocal(true);
    await server.call('POST', '/v1/webhooks', { body: { url: 'http://127.0.0.1:9/closed', type: 'ORDER_STATUS' } });
    await server.call('POST', '/v1/orders', { body: orderPayload('WH-3') });
    for (let i = 0; i < 12; i++) {
      await server.app.webhookDelivery.drain();
      server.clock.advance(12 * 3_600_000);
    }
    const attempts = (await server.call('GET', '/v1/webhooks')).json.rows[0];
    const all = (await server.call('GET', `/v1/webhooks/${attempts.uuid}/attempts`)).json;
    expect(all.meta.total).toBe(10);
    expect(all.rows[0]).toMatchObject({ httpStatus: null, delivered: false, error: 'the site refused the connection' });
    expect(all.rows[0].error).not.toMatch(/127\.0\.0\.1|:9/);
  });

  it('calls never reach this computer or the local network unless the owner allows it', async () => {
    for (const url of [`${site.base}/hook`, 'http://localhost:8080/hook', 'http://[::1]/hook', 'http://192.168.1.10/hook', 'http://169.254.169.254/latest']) {
      const refused = await server.call('POST', '/v1/webhooks', { body: { url, type: 'ORDER_STATUS' } });
      expect(refused.status, url).toBe(400);
      expect(refused.json).toMatchObject({ code: '040002', errors: [{ field: 'url', message: expect.stringContaining('public internet address') }] });
    }
    expect((await server.call('GET', '/v1/webhooks')).json.meta.total).toBe(0);

    // Allowed, registered by name, then forbidden again: the call is refused when it is made, by the address the name resolves to.
    await allowLocal(true);
    const port = new URL(site.base).port;
    await server.call('POST', '/v1/webhooks', { body: { url: `http://localhost:${port}/hook`, type: 'ORDER_STATUS' } });
    await allowLocal(false);
    await server.call('POST', '/v1/orders', { body: orderPayload('WH-4') });
    await server.app.webhookDelivery.drain();
    expect(site.calls).toEqual([]);
    const [row] = (await server.call('GET', '/v1/webhooks')).json.rows;
    expect(row.lastAttempts).toEqual([expect.objectContaining({ httpStatus: null, delivered: false, error: expect.stringContaining('not a public internet address') })]);

    // Once the owner allows it again, the waiting call goes out.
    await allowLocal(true);
    server.clock.advance(30_000);
    expect(await server.app.webhookDelivery.drain()).toBe(1);
    expect(site.calls).toHaveLength(1);
  });

  it('each company has its own webhooks and hears only of its own orders', async () => {
    await allowLocal(true);
    const a = (await server.call('POST', '/v1/webhooks', { body: { url: `${site.base}/a`, type: 'ORDER_STATUS' } })).json;
    const b = (await server.call('POST', '/v1/webhooks', { token: server.tokenB, body: { url: `${site.base}/b`, type: 'ORDER_STATUS' } })).json;
    await server.call('POST', '/v1/orders', { body: orderPayload('ONLY-A') });
    await server.call('POST', '/v1/orders', { token: server.tokenB, body: orderPayload('ONLY-B') });
    await server.app.webhookDelivery.drain();
    expect(site.calls.map((c) => [c.path, c.json.orderInfo.clientNumber]).sort()).toEqual([['/a', 'ONLY-A'], ['/b', 'ONLY-B']]);
    expect(site.calls.find((c) => c.path === '/b')!.headers['x-shipdesk-signature']).toBe(signedBy(b.secret, site.calls.find((c) => c.path === '/b')!.raw));

    expect((await server.call('GET', '/v1/webhooks', { token: server.tokenB })).json.rows.map((r: { uuid: string }) => r.uuid)).toEqual([b.uuid]);
    for (const [method, path] of [['GET', `/v1/webhooks/${a.uuid}/attempts`], ['DELETE', `/v1/webhooks/${a.uuid}`]]) {
      const res = await server.call(method, path, { token: server.tokenB });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json.code).toBe('040016');
    }
    expect((await server.call('GET', '/v1/webhooks')).json.rows.map((r: { uuid: string }) => r.uuid)).toEqual([a.uuid]);
  });

  it('a deleted webhook is called no more, even for calls that were waiting', async () => {
    await allowLocal(true);
    const hook = (await server.call('POST', '/v1/webhooks', { body: { url: `${site.base}/hook`, type: 'ORDER_STATUS' } })).json;
    await server.call('POST', '/v1/orders', { body: orderPayload('WH-5') });
    expect(await server.call('DELETE', `/v1/webhooks/${hook.uuid}`).then((r) => r.json)).toEqual({ uuid: hook.uuid, deleted: true });
    expect(await server.app.webhookDelivery.drain()).toBe(0);
    expect(site.calls).toEqual([]);
    expect((await server.call('DELETE', `/v1/webhooks/${hook.uuid}`)).status).toBe(404);
  });

  it('bad registrations get the error body and change nothing', async () => {
    await allowLocal(true);
    const cases: [unknown, string][] = [
      [{ url: `${site.base}/hook`, type: 'ORDER_CREATED' }, 'type'],
      [{ url: 'ftp://shop.example.ru/hook', type: 'ORDER_STATUS' }, 'url'],
      [{ url: 'not a link', type: 'ORDER_STATUS' }, 'url'],
      [{ type: 'ORDER_STATUS' }, 'url'],
      [{ url: `https://shop.example.ru/${'x'.repeat(2000)}`, type: 'ORDER_STATUS' }, 'url'],
    ];
    for (const [body, field] of cases) {
      const res = await server.call('POST', '/v1/webhooks', { body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json).toMatchObject({ code: '040002', errors: [expect.objectContaining({ field })] });
    }
    const notUuid = await server.call('DELETE', '/v1/webhooks/not-a-uuid');
    expect(notUuid.status).toBe(400);
    expect(notUuid.json.errors).toEqual([expect.objectContaining({ field: 'uuid' })]);
    expect((await server.call('GET', '/v1/webhooks')).json.meta.total).toBe(0);
  });
});

describe('webhook calls on their own', () => {
  it('with the workers running, an order\'s statuses reach the site with nobody driving the queue', async () => {
    const running = await startTestServer({ startWorkers: true });
    try {
      await running.app.services.settings.update(running.shop, { preferences: { allowLocalWebhooks: true } });
      await running.call('POST', '/v1/webhooks', { body: { url: `${site.base}/auto`, type: 'ORDER_STATUS' } });
      await running.call('POST', '/v1/orders', { body: orderPayload('WH-AUTO') });
      await expect.poll(() => site.calls.map((c) => c.json.status.key), { timeout: 20_000 }).toEqual(['uploading', 'uploaded']);
    } finally {
      await running.close();
    }
  });
});

describe('webhook calls across a restart', () => {
  it('a call that failed before ShipDesk stopped is made after it starts again', async () => {
    const data = tempDataDir();
    const clock = manualClock();
    const open = () => createApp({ dataDir: data.dir, clock, log: silentLogger });
    try {
      const first = await open();
      const shop = await first.desktopContext();
      await first.services.settings.update(shop, { preferences: { allowLocalWebhooks: true } });
      const hook = await first.services.webhooks.register(shop, { url: `${site.base}/hook`, type: 'ORDER_STATUS' });
      site.answers.push(502);
      const created = await first.services.orders.create(shop, orderPayload('WH-R') as never);
      await first.webhookDelivery.drain();
      expect(site.calls).toHaveLength(1);
      await first.close();

      clock.advance(30_000);
      const second = await open();
      try {
        expect(await second.webhookDelivery.drain()).toBe(1);
        expect(site.calls.map((c) => [c.json.orderInfo.orderId, c.json.status.key])).toEqual([
          [String(created.orderId), 'uploading'],
          [String(created.orderId), 'uploading'],
        ]);
        expect(site.calls[1].headers['x-shipdesk-signature']).toBe(signedBy(hook.secret, site.calls[1].raw));
        const { rows } = await second.services.webhooks.list(shop, { offset: 0, limit: 10 });
        expect(rows[0].lastAttempts.map((a) => a.httpStatus)).toEqual([200, 502]);
      } finally {
        await second.close();
      }
    } finally {
      data.remove();
    }
  });
});

import { Agent, request } from 'node:http';
import { orderPayload } from '../helpers/payloads';
import { startTestServer, type TestServer } from '../helpers/test-server';

describe('the local HTTP server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  describe('authentication', () => {
    it('refuses a call without a token with 401 and code 040101', async () => {
      const res = await server.call('POST', '/orders', { body: orderPayload('AUTH-1'), token: null });
      expect(res.status).toBe(401);
      expect(res.json).toMatchObject({ code: '040101', message: expect.any(String) });
    });

    it('refuses an unknown token', async () => {
      const res = await server.call('POST', '/v1/orders', { body: orderPayload('AUTH-2'), token: 'not-a-token' });
      expect(res.status).toBe(401);
      expect(res.json.code).toBe('040101');
    });

    it('a body sent with a bad token never leaves its client hanging: a small one is read and the connection serves the next call, a large one gets its 401 and the connection closes', async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      /** Sends `size` bytes to POST /v1/orders in 64 KiB writes; what the client saw once its request ended or failed. */
      const post = (size: number, token: string) =>
        new Promise<{ status?: number; connection?: string; reused?: boolean; sent: boolean; closed: boolean }>((resolve) => {
          const req = request(`http://127.0.0.1:${server.port}/v1/orders`, { method: 'POST', agent, headers: { Authorization: token, 'Content-Type': 'application/json', 'Content-Length': size } });
          const seen = { status: undefined as number | undefined, connection: undefined as string | undefined, reused: undefined as boolean | undefined, sent: false, closed: false };
          let answered = false;
          const settle = () => answered && (seen.sent || seen.closed) && resolve(seen);
          req.on('response', (res) => {
            [seen.status, seen.connection, seen.reused] = [res.statusCode, res.headers.connection, req.reusedSocket];
            res.resume();
            res.on('end', () => ((answered = true), settle()));
          });
          req.on('finish', () => ((seen.sent = true), settle()));
          req.on('close', () => ((seen.closed = true), settle()));
          req.on('error', () => {}); // the writes after a closed connection: seen as `closed`
          const chunk = Buffer.alloc(64 * 1024, 0x20);
          let left = size;
          const pump = () => {
            while (left > 0) {
              const piece = chunk.subarray(0, Math.min(chunk.length, left));
              left -= piece.length;
              if (!req.write(piece)) return void req.once('drain', pump);
            }
            req.end();
          };
          pump();
        });
      try {
        expect(await post(512 * 1024, 'not-a-token')).toMatchObject({ status: 401, sent: true });
        expect(await post(20, server.tokenA)).toMatchObject({ status: 400, sent: true, reused: true }); // the same connection, the next call
        expect(await post(20 * 1024 * 1024, 'not-a-token')).toMatchObject({ status: 401, connection: 'close', closed: true });
      } finally {
        agent.destroy();
      }
    });

    it('takes the raw token and the Bearer form alike', async () => {
      const raw = await server.call('POST', '/orders', { body: orderPayload('AUTH-3'), token: server.tokenA });
      const bearer = await server.call('POST', '/orders', { body: orderPayload('AUTH-4'), token: `Bearer ${server.tokenA}` });
      expect([raw.status, bearer.status]).toEqual([200, 200]);
    });
  });

  describe('POST /orders', () => {
    it('creates an order with and without the /v1 prefix and answers orderId and created', async () => {
      for (const [path, n] of [['/orders', 'P-1'], ['/v1/orders', 'P-2']] as const) {
        const res = await server.call('POST', path, { body: orderPayload(n) });
        expect(res.status).toBe(200);
        expect(res.json).toEqual({ orderId: expect.stringMatching(/^\d+$/), created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/) });
      }
    });

    it('names every missing required field in the error body (040002)', async () => {
      const res = await server.call('POST', '/orders', {
        body: orderPayload('P-3', (o) => {
          delete (o.recipient as Partial<typeof o.recipient>).countryCode;
          delete (o.order as Partial<typeof o.order>).tariffId;
        }),
      });
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('040002');
      expect(res.json.errors).toEqual(
        expect.arrayContaining([
          { field: 'recipient.countryCode', message: 'is required' },
          { field: 'order.tariffId', message: 'is required' },
        ]),
      );
    });

    it('refuses a clientNumber already used by a live order of the same company', async () => {
      await server.call('POST', '/orders', { body: orderPayload('DUP-1') });
      const again = await server.call('POST', '/orders', { body: orderPayload('DUP-1') });
      expect(again.status).toBe(400);
      expect(again.json.errors).toEqual([{ field: 'order.clientNumber', message: expect.stringMatching(/unique within the company/) }]);
      const otherCompany = await server.call('POST', '/orders', { body: orderPayload('DUP-1'), token: server.tokenB });
      expect(otherCompany.status).toBe(200);
    });

    it('requires pointOutId for delivery to a pickup point', async () => {
      const res = await server.call('POST', '/orders', { body: orderPayload('PT-1', (o) => (o.order.deliveryType = 2)) });
      expect(res.json.errors).toEqual(expect.arrayContaining([{ field: 'order.pointOutId', message: 'is required when deliveryType = 2' }]));
    });

    it('refuses an unknown delivery service and a tariff the service does not offer', async () => {
      const unknown = await server.call('POST', '/orders', { body: orderPayload('SV-1', (o) => (o.order.providerKey = 'nope')) });
      expect(unknown.json.errors).toEqual([{ field: 'order.providerKey', message: 'unknown delivery service nope' }]);
      const tariff = await server.call('POST', '/orders', { body: orderPayload('SV-2', (o) => (o.order.tariffId = 999)) });
      expect(tariff.json.errors[0].field).toBe('order.tariffId');
    });

    it('accepts an XML body (empty elements mean not given) and answers in XML', async () => {
      const xml = `<?xml version="1.0" encoding="UTF-8"?>
<request>
  <order><clientNumber>XML-1</clientNumber><providerKey>sandbox-express</providerKey><deliveryType>1</deliveryType>
    <pickupType>1</pickupType><tariffId>103</tariffId><weight>1200</weight><length/><pointInId></pointInId></order>
  <cost><assessedCost>2500</assessedCost><codCost>0</codCost></cost>
  <sender><countryCode>RU</countryCode><city>Москва</city><contactName>Иван</contactName><phone>+79161234567</phone></sender>
  <recipient><countryCode>RU</countryCode><city>Казань</city><contactName>Анна</contactName><phone>+79219876543</phone></recipient>
  <places><item><weight>1200</weight><items><item><description>Книга</description><quantity>1</quantity></item></items></item></places>
</request>`;
      const res = await server.call('POST', '/orders', { raw: xml, headers: { 'Content-Type': 'application/xml', Accept: 'application/xml' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/application\/xml/);
      expect(res.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<response><orderId>\d+<\/orderId><created>[^<]+<\/created><\/response>$/);
    });
  });

  describe('bad input never gets a 500', () => {
    it('malformed JSON gets 400 with the error body', async () => {
      const res = await server.call('POST', '/orders', { raw: '{"order": ', headers: { 'Content-Type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: '040000', description: expect.stringMatching(/Malformed JSON/) });
    });

    it('malformed XML gets 400 in XML', async () => {
      const res = await server.call('POST', '/orders', { raw: '<request><order>', headers: { 'Content-Type': 'application/xml' } });
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/<code>040000<\/code>.*Malformed XML/s);
    });

    it('wrong types and unknown enum values are validation errors', async () => {
      const res = await server.call('POST', '/orders', {
        body: orderPayload('T-1', (o) => {
          (o.order as Record<string, unknown>).weight = 'heavy';
          (o.order as Record<string, unknown>).deliveryType = 7;
          (o as Record<string, unknown>).places = 'none';
        }),
      });
      expect(res.status).toBe(400);
      expect(res.json.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(['order.weight', 'order.deliveryType', 'places']));
    });

    it('a body that is not UTF-8 gets 040004', async () => {
      const res = await server.call('POST', '/orders', { raw: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), headers: { 'Content-Type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('040004');
    });

    it('an oversized body gets 413 and nothing is stored', async () => {
      const count = async () => Number((await server.app.db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const before = await count();
      const huge = JSON.stringify({ ...orderPayload('BIG-1'), padding: 'x'.repeat(2 * 1024 * 1024) });
      const res = await server.call('POST', '/orders', { raw: huge, headers: { 'Content-Type': 'application/json' } });
      expect(res.status).toBe(413);
      expect(res.json.code).toBe('040000');
      expect(await count()).toBe(before);
    });

    it('an unknown path gets 404 and a wrong method 405, both with error bodies', async () => {
      const missing = await server.call('GET', '/v1/nothing/here');
      expect(missing.status).toBe(404);
      expect(missing.json.code).toBe('040016');
      const wrong = await server.call('DELETE', '/app/commands/orders.list');
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('allow')).toBe('POST');
    });
  });

  describe('browser safety', () => {
    it('answers only to a 127.0.0.1 or localhost Host header (DNS rebinding)', async () => {
      const { request } = await import('node:http');
      const status = await new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: server.port, path: '/orders', method: 'GET', headers: { Host: `evil.example:${server.port}` } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(403);
    });

    it('sends no CORS headers, so other web pages cannot read the answers', async () => {
      const res = await server.call('POST', '/orders', { body: orderPayload('CORS-1'), headers: { Origin: 'https://evil.example' } });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('listens on the loopback interface only', () => {
      expect(server.base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    });
  });

  describe('the browser-mode command transport', () => {
    it('runs a command and answers a Result', async () => {
      await server.call('POST', '/orders', { body: orderPayload('CMD-1'), token: server.shopToken });
      const res = await server.command('orders.list', { search: 'CMD-1' });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ ok: true, value: { total: 1, rows: [{ clientNumber: 'CMD-1', statusKey: 'uploading' }] } });
    });

    it('shows the shop only its own orders, never an API client\'s', async () => {
      await server.call('POST', '/orders', { body: orderPayload('MINE-1'), token: server.tokenB });
      const shop = await server.command('orders.list', { search: 'MINE-1' });
      expect(shop.json.value.total).toBe(0);
      const client = await server.command('orders.list', { search: 'MINE-1' }, server.tokenB);
      expect(client.status).toBe(403);
    });

    it('answers an unknown command and bad input with an error Result', async () => {
      const unknown = await server.command('orders.explode');
      expect(unknown.json).toMatchObject({ ok: false, error: { code: '040016' } });
      const bad = await server.command('orders.list', { limit: 'lots' });
      expect(bad.json).toMatchObject({ ok: false, error: { code: '040002', errors: [{ field: 'limit' }] } });
    });

    it('streams push events of the caller\'s company only', async () => {
      const controller = new AbortController();
      const res = await fetch(`${server.base}/app/events`, { headers: { Authorization: server.owner }, signal: controller.signal });
      expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
      const reader = res.body!.getReader();
      await server.call('POST', '/orders', { body: orderPayload('EV-B'), token: server.tokenB });
      const created = await server.call('POST', '/orders', { body: orderPayload('EV-A'), token: server.shopToken });
      let text = '';
      while (!text.includes('orders.changed')) text += new TextDecoder().decode((await reader.read()).value);
      controller.abort();
      const events = text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
      expect(events).toEqual([{ type: 'orders.changed', companyId: server.shop.companyId, orderIds: [created.json.orderId] }]);
    });
  });
});

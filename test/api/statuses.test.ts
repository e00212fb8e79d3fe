import type { NewStatus } from '../../electron/core/store/orders/orders-store';
import { formatTimestamp } from '../../shared/time';
import { orderPayload } from '../helpers/payloads';
import { startTestServer, type TestServer } from '../helpers/test-server';

const xml = { Accept: 'application/xml' };
const at = (iso: string) => Date.parse(iso);
const stringFields = (o: Record<string, unknown>) => Object.values(o).every((v) => typeof v === 'string');

describe('status methods of one order', () => {
  let server: TestServer;
  /** Creates an order of company A (or B), registers it with its service and records the given statuses. */
  async function orderWith(clientNumber: string, statuses: (Omit<NewStatus, 'at'> & { at: string })[] = [], token?: string) {
    const res = await server.call('POST', '/orders', { body: orderPayload(clientNumber), token });
    expect(res.status).toBe(200);
    await server.app.outbox.drain();
    const company = token === server.tokenB ? server.companyB : token === server.shopToken ? server.shop : server.companyA;
    for (const s of statuses) await server.app.stores.orders.appendStatus(Number(res.json.orderId), company.companyId, { ...s, at: at(s.at) });
    return res.json.orderId as string;
  }

  let delivered: string;
  beforeAll(async () => {
    server = await startTestServer();
    delivered = await orderWith('ST-1', [
      { key: 'onPointIn', at: '2026-03-02T09:00:00+03:00', providerCode: 'ACCEPTED', providerName: 'Принят', createdProvider: at('2026-03-02T08:59:00+03:00') },
      { key: 'onWay', at: '2026-03-02T18:00:00+03:00', description: 'В пути в Санкт-Петербург', providerCode: 'IN_TRANSIT' },
      { key: 'delivered', at: '2026-03-04T12:30:00+03:00', providerCode: 'DELIVERED', providerName: 'Вручён', providerDescription: 'Вручено лично' },
    ]);
  });
  afterAll(() => server.close());

  describe('GET /orders/{orderId}/status', () => {
    it('answers the order and its newest status, with and without /v1', async () => {
      for (const path of [`/orders/${delivered}/status`, `/v1/orders/${delivered}/status`]) {
        const res = await server.call('GET', path);
        expect(res.status).toBe(200);
        expect(res.json).toEqual({
          orderInfo: {
            orderId: delivered,
            providerKey: 'sandbox-express',
            providerNumber: expect.stringMatching(/^SBE\d+$/),
            returnProviderNumber: '',
            additionalProviderNumber: '',
            barcode: expect.stringMatching(/^\d+$/),
            clientNumber: 'ST-1',
            trackingUrl: expect.stringContaining('/track/SBE'),
          },
          status: {
            key: 'delivered',
            name: 'Вручён',
            description: '',
            created: formatTimestamp(at('2026-03-04T12:30:00+03:00')),
            providerCode: 'DELIVERED',
            providerName: 'Вручён',
            providerDescription: 'Вручено лично',
            createdProvider: '',
            errorCode: '',
          },
        });
      }
    });

    it('every orderInfo and status field is a string, timestamps ISO 8601 with offset', async () => {
      const res = await server.call('GET', `/orders/${delivered}/status`);
      expect(stringFields(res.json.orderInfo) && stringFields(res.json.status)).toBe(true);
      expect(res.json.status.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    });

    it('answers in XML under the root element response', async () => {
      const res = await server.call('GET', `/orders/${delivered}/status`, { headers: xml });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/application\/xml/);
      expect(res.text).toContain(`<response><orderInfo><orderId>${delivered}</orderId>`);
      expect(res.text).toContain('<status><key>delivered</key><name>Вручён</name>');
      expect(res.text).toContain('<additionalProviderNumber/>');
    });

    it('an unknown order, an id that is not a number and another company\'s order are 404 with 040080', async () => {
      const foreign = await orderWith('ST-B', [], server.tokenB);
      for (const id of ['999999', 'abc', foreign]) {
        const res = await server.call('GET', `/orders/${id}/status`);
        expect(res.status).toBe(404);
        expect(res.json).toMatchObject({ code: '040080', message: expect.any(String) });
      }
      const xmlError = await server.call('GET', '/orders/999999/status', { headers: xml });
      expect(xmlError.status).toBe(404);
      expect(xmlError.text).toMatch(/^<\?xml[^>]*\?>\n<response><code>040080<\/code><message>/);
    });

    it('an order without any status is 404 with 040018', async () => {
      const id = await orderWith('ST-EMPTY');
      await server.app.db.deleteFrom('order_statuses').where('order_id', '=', Number(id)).execute();
      const res = await server.call('GET', `/orders/${id}/status`);
      expect(res.status).toBe(404);
      expect(res.json.code).toBe('040018');
    });

    it('a canceled order still answers, with deliveryCanceled; a deleted one is gone', async () => {
      const id = await orderWith('ST-CANCEL', [{ key: 'deliveryCanceled', at: '2026-03-02T10:00:00+03:00' }]);
      await server.app.db.updateTable('orders').set({ state: 'canceled' }).where('id', '=', Number(id)).execute();
      expect((await server.call('GET', `/orders/${id}/status`)).json.status.key).toBe('deliveryCanceled');
      await server.app.db.updateTable('orders').set({ state: 'deleted' }).where('id', '=', Number(id)).execute();
      expect((await server.call('GET', `/orders/${id}/status`)).json.code).toBe('040080');
    });
  });

  describe('GET /orders/status?clientNumber=', () => {
    it('answers the same as by orderId', async () => {
      const byNumber = await server.call('GET', '/v1/orders/status?clientNumber=ST-1');
      const byId = await server.call('GET', `/orders/${delivered}/status`);
      expect(byNumber.status).toBe(200);
      expect(byNumber.json).toEqual(byId.json);
    });

    it('prefers the live order when a canceled one had the same clientNumber', async () => {
      const old = await orderWith('ST-REUSED');
      await server.app.db.updateTable('orders').set({ state: 'canceled' }).where('id', '=', Number(old)).execute();
      expect((await server.call('GET', '/orders/status?clientNumber=ST-REUSED')).json.orderInfo.orderId).toBe(old);
      const live = await orderWith('ST-REUSED');
      expect((await server.call('GET', '/orders/status?clientNumber=ST-REUSED')).json.orderInfo.orderId).toBe(live);
    });

    it('an unknown clientNumber (or another company\'s) is 404 with 040080; none at all is 040002', async () => {
      await orderWith('ST-ONLY-B', [], server.tokenB);
      for (const n of ['NOPE', 'ST-ONLY-B']) {
        const res = await server.call('GET', `/orders/status?clientNumber=${n}`);
        expect(res.status).toBe(404);
        expect(res.json.code).toBe('040080');
      }
      const missing = await server.call('GET', '/orders/status', { headers: xml });
      expect(missing.status).toBe(400);
      expect(missing.text).toContain('<code>040002</code>');
      expect(missing.text).toContain('<errors><item><field>clientNumber</field><message>is required</message></item></errors>');
    });
  });

  describe('POST /orders/statuses', () => {
    it('answers each order asked for, and lists the ones it cannot answer', async () => {
      const foreign = await orderWith('ST-BULK-B', [], server.tokenB);
      const res = await server.call('POST', '/orders/statuses', { body: { orderIds: [Number(delivered), '424242', foreign, 'x-1'] } });
      expect(res.status).toBe(200);
      expect(res.json.succeedOrders).toEqual([{ orderInfo: expect.objectContaining({ orderId: delivered, clientNumber: 'ST-1' }), status: expect.objectContaining({ key: 'delivered' }) }]);
      expect(res.json.failedOrders).toEqual([
        { orderId: '424242', message: 'Order 424242 was not found' },
        { orderId: foreign, message: `Order ${foreign} was not found` },
        { orderId: 'x-1', message: 'Order x-1 was not found' },
      ]);
    });

    it('takes an XML request and answers in XML with item lists', async () => {
      const body = `<?xml version="1.0" encoding="UTF-8"?><request><orderIds><item>${delivered}</item><item>777777</item></orderIds></request>`;
      const res = await server.call('POST', '/v1/orders/statuses', { raw: body, headers: { 'Content-Type': 'application/xml', ...xml } });
      expect(res.status).toBe(200);
      expect(res.text).toContain(`<succeedOrders><item><orderInfo><orderId>${delivered}</orderId>`);
      expect(res.text).toContain('<failedOrders><item><orderId>777777</orderId><message>Order 777777 was not found</message></item></failedOrders>');
    });

    it('more than 100 ids, none, or no body at all are 040002 naming orderIds', async () => {
      const tooMany = Array.from({ length: 101 }, (_, i) => i + 1);
      for (const body of [{ orderIds: tooMany }, { orderIds: [] }, {}]) {
        const res = await server.call('POST', '/orders/statuses', { body });
        expect(res.status).toBe(400);
        expect(res.json).toMatchObject({ code: '040002', errors: [{ field: 'orderIds' }] });
      }
      const empty = await server.call('POST', '/orders/statuses');
      expect(empty.json.code).toBe('040002');
      const hundred = await server.call('POST', '/orders/statuses', { body: { orderIds: tooMany.slice(0, 100) } });
      expect(hundred.status).toBe(200);
    });
  });

  describe('GET /orders/{orderId}/statusHistory', () => {
    it('lists the statuses newest first with meta total, offset and limit', async () => {
      const res = await server.call('GET', `/v1/orders/${delivered}/statusHistory`);
      expect(res.status).toBe(200);
      expect(res.json.orderInfo).toMatchObject({ orderId: delivered, clientNumber: 'ST-1' });
      expect(res.json.rows.map((r: { key: string }) => r.key)).toEqual(['delivered', 'onWay', 'onPointIn', 'uploaded', 'uploading']);
      expect(res.json.meta).toEqual({ total: 5, offset: 0, limit: 100 });
      expect(res.json.rows[1]).toEqual({
        key: 'onWay',
        name: 'В пути',
        description: 'В пути в Санкт-Петербург',
        created: formatTimestamp(at('2026-03-02T18:00:00+03:00')),
        providerCode: 'IN_TRANSIT',
        providerName: '',
        providerDescription: '',
        createdProvider: '',
        errorCode: '',
      });
      expect(res.json.rows[2].createdProvider).toBe(formatTimestamp(at('2026-03-02T08:59:00+03:00')));
    });

    it('pages with offset and limit', async () => {
      const res = await server.call('GET', `/orders/${delivered}/statusHistory?offset=1&limit=2`);
      expect(res.json.rows.map((r: { key: string }) => r.key)).toEqual(['onWay', 'onPointIn']);
      expect(res.json.meta).toEqual({ total: 5, offset: 1, limit: 2 });
      const last = await server.call('GET', `/orders/${delivered}/statusHistory?offset=5000&limit=1`);
      expect(last.json).toMatchObject({ rows: [], meta: { total: 5, offset: 5000, limit: 1 } });
    });

    it('answers in XML: root response, rows as item, meta with total, offset and limit', async () => {
      const res = await server.call('GET', `/orders/${delivered}/statusHistory?limit=2`, { headers: xml });
      expect(res.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<response><orderInfo>.*<\/orderInfo><rows><item><key>delivered<\/key>.*<\/item><item><key>onWay<\/key>.*<\/item><\/rows><meta><total>5<\/total><offset>0<\/offset><limit>2<\/limit><\/meta><\/response>$/s);
    });

    it.each([
      ['offset=5001', 'offset'],
      ['offset=-1', 'offset'],
      ['offset=1.5', 'offset'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=many', 'limit'],
    ])('refuses %s with 040002 naming the field', async (query, field) => {
      const res = await server.call('GET', `/orders/${delivered}/statusHistory?${query}`);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: '040002', errors: [{ field, message: expect.any(String) }] });
    });

    it('the bounds are reported in XML too', async () => {
      const res = await server.call('GET', `/orders/${delivered}/statusHistory?limit=101`, { headers: xml });
      expect(res.status).toBe(400);
      expect(res.text).toContain('<code>040002</code>');
      expect(res.text).toContain('<field>limit</field><message>must be between 1 and 100</message>');
    });

    it('orderIds merges the histories of up to 100 orders, each row naming its order', async () => {
      const other = await orderWith('ST-MERGE', [{ key: 'onWay', at: '2026-03-03T09:00:00+03:00' }]);
      const res = await server.call('GET', `/orders/${delivered}/statusHistory?orderIds=${other}&limit=3`);
      expect(res.status).toBe(200);
      expect(res.json.orderInfo.orderId).toBe(delivered);
      expect(res.json.rows.map((r: { key: string; orderId: string }) => [r.orderId, r.key])).toEqual([
        [delivered, 'delivered'],
        [other, 'onWay'],
        [delivered, 'onWay'],
      ]);
      expect(res.json.meta.total).toBe(5 + 3);
      const phpStyle = await server.call('GET', `/orders/${delivered}/statusHistory?orderIds[]=${other}&orderIds[]=${delivered}`);
      expect(phpStyle.json.meta.total).toBe(8);
    });

    it('more than 100 orderIds is 040002; an orderId that is not the company\'s is 040080', async () => {
      const ids = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
      const tooMany = await server.call('GET', `/orders/${delivered}/statusHistory?orderIds=${ids}`);
      expect(tooMany.status).toBe(400);
      expect(tooMany.json).toMatchObject({ code: '040002', errors: [{ field: 'orderIds', message: 'must name at most 100 orders' }] });
      const unknown = await server.call('GET', `/orders/${delivered}/statusHistory?orderIds=123456`);
      expect(unknown.status).toBe(404);
      expect(unknown.json.code).toBe('040080');
    });

    it('an unknown order is 404 with 040080, in JSON and XML', async () => {
      const res = await server.call('GET', '/orders/999999/statusHistory');
      expect(res.status).toBe(404);
      expect(res.json.code).toBe('040080');
      const inXml = await server.call('GET', '/orders/999999/statusHistory', { headers: xml });
      expect(inXml.text).toContain('<code>040080</code>');
    });

    it('filter narrows the rows by key or created', async () => {
      const byKey = await server.call('GET', `/orders/${delivered}/statusHistory?filter=${encodeURIComponent('key=[onWay,delivered]')}`);
      expect(byKey.json.rows.map((r: { key: string }) => r.key)).toEqual(['delivered', 'onWay']);
      const byTime = await server.call('GET', `/orders/${delivered}/statusHistory?filter=${encodeURIComponent('created>2026-03-02T12:00:00+03:00')}`);
      expect(byTime.json.meta.total).toBe(2);
      const bad = await server.call('GET', `/orders/${delivered}/statusHistory?filter=providerKey=x`);
      expect(bad.json.code).toBe('040011');
    });
  });

  describe('GET /orders/status/history?clientNumber=', () => {
    it('answers the same as statusHistory of that order, with the same bounds', async () => {
      const byNumber = await server.call('GET', '/orders/status/history?clientNumber=ST-1&limit=2');
      const byId = await server.call('GET', `/orders/${delivered}/statusHistory?limit=2`);
      expect(byNumber.status).toBe(200);
      expect(byNumber.json).toEqual(byId.json);
      const tooFar = await server.call('GET', '/orders/status/history?clientNumber=ST-1&offset=5001');
      expect(tooFar.json).toMatchObject({ code: '040002', errors: [{ field: 'offset' }] });
    });

    it('an unknown clientNumber is 040080 and a missing one 040002', async () => {
      expect((await server.call('GET', '/orders/status/history?clientNumber=NOPE')).json.code).toBe('040080');
      expect((await server.call('GET', '/orders/status/history')).json.code).toBe('040002');
    });

    it('answers in XML', async () => {
      const res = await server.call('GET', '/orders/status/history?clientNumber=ST-1&limit=1', { headers: xml });
      expect(res.text).toMatch(/<response><orderInfo>.*<clientNumber>ST-1<\/clientNumber>.*<rows><item><key>delivered<\/key>.*<meta><total>5<\/total><offset>0<\/offset><limit>1<\/limit><\/meta><\/response>$/s);
    });
  });

  describe('the statuses.history command (the order timeline in the UI)', () => {
    it('answers the same timeline through the command transport, for the shop\'s own orders only', async () => {
      const shopOrder = await orderWith('ST-SHOP', [{ key: 'delivered', at: '2026-03-04T12:30:00+03:00', providerCode: 'DELIVERED' }], server.shopToken);
      const res = await server.command('statuses.history', { orderId: shopOrder });
      expect(res.json.ok).toBe(true);
      expect(res.json.value.rows.map((r: { key: string }) => r.key)).toEqual(['delivered', 'uploaded', 'uploading']);
      const clients = await server.command('statuses.history', { orderId: delivered }); // company A's order
      expect(clients.json).toMatchObject({ ok: false, error: { code: '040080' } });
    });
  });
});

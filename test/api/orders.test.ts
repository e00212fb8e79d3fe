import { XMLParser } from 'fast-xml-parser';
import { toXmlDocument } from '../../electron/core/api/xml';
import type { OrderCreateInput } from '../../shared/schemas/order';
import { orderPayload } from '../helpers/payloads';
import { sandboxPayload } from '../helpers/sandbox-orders';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { ownerOf } from '../../electron/core/auth/caller';
import { quickOrderCreate } from '../../electron/core/orders/quick-order-check';

const hour = 3_600_000;
const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;
const xmlHeaders = { 'Content-Type': 'application/xml', Accept: 'application/xml' };
const readXml = (text: string) => new XMLParser({ parseTagValue: false }).parse(text).response;

describe('orders: read, change, cancel, delete (HTTP)', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(() => server.close());

  const create = async (payload: OrderCreateInput, token?: string) => {
    const res = await server.call('POST', '/orders', { body: payload, token });
    expect(res.status).toBe(200);
    return res.json.orderId as string;
  };
  const registered = async (payload: OrderCreateInput, token?: string) => {
    const id = await create(payload, token);
    await server.app.outbox.drain();
    return id;
  };
  const statusOf = async (id: string) => (await server.call('GET', `/orders/${id}`)).json.order.statusKey;

  describe('GET /orders/{orderId}', () => {
    it('answers the order with its numbers, data and status, with and without /v1', async () => {
      const id = await create(orderPayload('G-1', (o) => (o.extraParams = { insurance: true })));
      const queued = await server.call('GET', `/orders/${id}`);
      expect(queued.status).toBe(200);
      expect(queued.json.order).toMatchObject({ orderId: id, providerNumber: '', barcode: '', statusKey: 'uploading', clientNumber: 'G-1' });
      await server.app.outbox.drain();
      for (const path of [`/orders/${id}`, `/v1/orders/${id}`]) {
        const res = await server.call('GET', path);
        expect(res.json).toEqual({
          order: {
            orderId: id,
            providerNumber: expect.stringMatching(/^SBE\d{9}$/),
            additionalProviderNumber: '',
            returnProviderNumber: '',
            barcode: expect.stringMatching(/^\d{12}$/),
            trackingUrl: expect.stringContaining('/track/SBE'),
            clientNumber: 'G-1',
            providerKey: 'sandbox-express',
            deliveryType: 1,
            pickupType: 1,
            tariffId: 103,
            weight: 1200,
            length: 30,
            width: 20,
            height: 10,
            statusKey: 'uploaded',
            created: expect.stringMatching(iso),
          },
          cost: { assessedCost: 2500, codCost: 2990.5, deliveryCost: 490.5 },
          sender: expect.objectContaining({ countryCode: 'RU', city: 'Москва', contactName: 'Иван Петров' }),
          recipient: expect.objectContaining({ countryCode: 'RU', city: 'Санкт-Петербург', email: 'anna@example.ru' }),
          places: [
            {
              weight: 1200,
              length: 30,
              width: 20,
              height: 10,
              items: [
                { description: 'Футболка', articul: 'TS-01', quantity: 2, assessedCost: 1000, cost: 1000, weight: 300 },
                { description: 'Кепка', articul: 'CP-02', quantity: 1, assessedCost: 500, cost: 500, weight: 200 },
              ],
            },
          ],
          extraParams: [{ key: 'insurance', value: true }],
        });
      }
    });

    it('answers XML when asked for it', async () => {
      const id = await registered(orderPayload('G-2'));
      const res = await server.call('GET', `/orders/${id}`, { headers: { Accept: 'application/xml' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/application\/xml/);
      const doc = readXml(res.text);
      expect(doc.order).toMatchObject({ orderId: id, clientNumber: 'G-2', statusKey: 'uploaded', barcode: expect.stringMatching(/^\d{12}$/) });
      expect(doc.places.item.items.item).toHaveLength(2);
    });

    it('an unknown order, a malformed id and another company\'s order are all 404 040080', async () => {
      const id = await create(orderPayload('G-3'), server.tokenB);
      for (const path of ['/orders/999999', '/orders/abc', `/orders/${id}`]) {
        const res = await server.call('GET', path);
        expect(res.status).toBe(404);
        expect(res.json).toMatchObject({ code: '040080' });
      }
      expect((await server.call('GET', `/orders/${id}`, { token: server.tokenB })).status).toBe(200);
    });

    it('a canceled order can still be read; a deleted one is gone', async () => {
      const canceled = await registered(orderPayload('G-4'));
      await server.call('GET', `/orders/${canceled}/cancel`);
      expect(await statusOf(canceled)).toBe('deliveryCanceled');
      const deleted = await create(orderPayload('G-5'));
      await server.call('DELETE', `/orders/${deleted}`);
      expect((await server.call('GET', `/orders/${deleted}`)).json.code).toBe('040080');
    });
  });

  describe('PUT /orders/{orderId}', () => {
    it('an order not sent yet: the queued transfer takes the new data', async () => {
      const id = await create(orderPayload('U-1'));
      const res = await server.call('PUT', `/orders/${id}`, { body: orderPayload('U-1', (o) => (o.recipient.house = '99')) });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ message: 'ok', orderId: id });
      expect(await server.app.outbox.state()).toMatchObject({ pending: 1 });
      await server.app.outbox.drain();
      const shipment = await server.app.db.selectFrom('sandbox_shipments').select('payload').executeTakeFirstOrThrow();
      expect(JSON.parse(shipment.payload).recipient.house).toBe('99');
    });

    it('takes an XML body and answers XML, with /v1', async () => {
      const id = await registered(orderPayload('U-2'));
      const body = toXmlDocument(orderPayload('U-2', (o) => (o.recipient.office = '12')), 'request');
      const res = await server.call('PUT', `/v1/orders/${id}`, { raw: body, headers: xmlHeaders });
      expect(res.status).toBe(200);
      expect(readXml(res.text)).toMatchObject({ message: 'ok' });
      await server.app.outbox.drain();
      expect((await server.call('GET', `/orders/${id}`)).json.recipient.office).toBe('12');
    });

    it('bad data is 040002 with the fields named, and changes nothing', async () => {
      const id = await create(orderPayload('U-3'));
      const res = await server.call('PUT', `/orders/${id}`, {
        body: orderPayload('U-3', (o) => {
          (o.recipient as { countryCode?: string }).countryCode = undefined;
          o.order.weight = 5000;
        }),
      });
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('040002');
      expect(res.json.errors).toEqual([{ field: 'recipient.countryCode', message: 'is required' }]);
      const rules = await server.call('PUT', `/orders/${id}`, { body: orderPayload('U-3', (o) => (o.order.weight = 500)) });
      expect(rules.json.errors).toEqual([{ field: 'order.weight', message: expect.stringContaining('must not be less than the places weigh') }]);
      expect((await server.call('GET', `/orders/${id}`)).json.order.weight).toBe(1200);
    });

    it('a clientNumber another live order has is refused (040002)', async () => {
      await create(orderPayload('U-4'));
      const id = await create(orderPayload('U-5'));
      const res = await server.call('PUT', `/orders/${id}`, { body: orderPayload('U-4') });
      expect(res.status).toBe(400);
      expect(res.json.errors).toEqual([{ field: 'order.clientNumber', message: 'clientNumber U-4 must be unique within the company' }]);
    });

    it('a registered order cannot move to another delivery service', async () => {
      const id = await registered(orderPayload('U-6'));
      const res = await server.call('PUT', `/orders/${id}`, { body: await sandboxPayload(server.app.db, 'sandbox-post', 'U-6') });
      expect(res.status).toBe(400);
      expect(res.json.errors).toEqual([{ field: 'order.providerKey', message: expect.stringContaining('cannot move to another delivery service') }]);
    });

    it('a service without update: 403 040306 saying what to do instead', async () => {
      const id = await registered(await sandboxPayload(server.app.db, 'sandbox-post', 'U-7'));
      const res = await server.call('PUT', `/orders/${id}`, { body: await sandboxPayload(server.app.db, 'sandbox-post', 'U-7') });
      expect(res.status).toBe(403);
      expect(res.json).toMatchObject({ code: '040306', description: expect.stringContaining('Delete it (DELETE /orders/{orderId}) and create it again') });
    });

    it('a parcel already handed over (onPointIn and later) refuses changes: 400 040000', async () => {
      const id = await registered(orderPayload('U-8'));
      server.clock.advance(6 * hour);
      await server.app.services.statusRefresh.refresh();
      const res = await server.call('PUT', `/orders/${id}`, { body: orderPayload('U-8') });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: '040000', description: expect.stringContaining('has already been handed over to the delivery service (status onPointIn)') });
    });

    it('an unknown or another company\'s order is 404 040080, whatever the body', async () => {
      const other = await create(orderPayload('U-9'), server.tokenB);
      for (const id of ['424242', other]) {
        const res = await server.call('PUT', `/orders/${id}`, { body: { nonsense: true } });
        expect(res.status).toBe(404);
        expect(res.json.code).toBe('040080');
      }
    });
  });

  describe('GET /orders/{orderId}/cancel', () => {
    it('cancels: deliveryCanceled, the time of it, the clientNumber free again; with and without /v1', async () => {
      const id = await registered(orderPayload('C-1'));
      const res = await server.call('GET', `/v1/orders/${id}/cancel`);
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ orderId: id, canceled: expect.stringMatching(iso) });
      expect(await statusOf(id)).toBe('deliveryCanceled');
      expect((await server.call('POST', '/orders', { body: orderPayload('C-1') })).status).toBe(200);
    });

    it('a second cancel is refused with 040081 (HTTP 400)', async () => {
      const id = await registered(orderPayload('C-2'));
      await server.call('GET', `/orders/${id}/cancel`);
      const res = await server.call('GET', `/orders/${id}/cancel`);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: '040081', message: expect.any(String) });
    });

    it('an unknown order is 040080 (HTTP 404), also in XML', async () => {
      const res = await server.call('GET', '/orders/31337/cancel', { headers: { Accept: 'application/xml' } });
      expect(res.status).toBe(404);
      expect(readXml(res.text)).toMatchObject({ code: '040080' });
    });

    it('another company\'s order is 040080 and stays as it is', async () => {
      const id = await registered(orderPayload('C-3'), server.tokenB);
      expect((await server.call('GET', `/orders/${id}/cancel`)).status).toBe(404);
      expect((await server.call('GET', `/orders/${id}`, { token: server.tokenB })).json.order.statusKey).toBe('uploaded');
    });

    it('a service that cannot cancel is 040306 (HTTP 403)', async () => {
      const id = await registered(await sandboxPayload(server.app.db, 'sandbox-post', 'C-4'));
      const res = await server.call('GET', `/orders/${id}/cancel`);
      expect(res.status).toBe(403);
      expect(res.json).toMatchObject({ code: '040306', description: expect.stringContaining('Delete it instead') });
    });

    it('answers XML with root response', async () => {
      const id = await registered(orderPayload('C-5'));
      const res = await server.call('GET', `/orders/${id}/cancel`, { headers: { Accept: 'application/xml' } });
      expect(res.text).toMatch(/^<\?xml[^>]*>\s*<response><orderId>\d+<\/orderId><canceled>[^<]+<\/canceled><\/response>$/);
    });
  });

  describe('DELETE /orders/{orderId}', () => {
    it('deletes an order not sent yet and drops its transfer', async () => {
      const id = await create(orderPayload('D-1'));
      const res = await server.call('DELETE', `/orders/${id}`);
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ orderId: id, deleted: expect.stringMatching(iso) });
      expect(await server.app.outbox.state()).toMatchObject({ pending: 0 });
      expect(await server.app.db.selectFrom('sandbox_shipments').selectAll().execute()).toEqual([]);
    });

    it('a service that keeps registered orders (update or cancel) refuses: 403 040306', async () => {
      const id = await registered(orderPayload('D-2'));
      const res = await server.call('DELETE', `/v1/orders/${id}`, { headers: { Accept: 'application/xml' } });
      expect(res.status).toBe(403);
      expect(readXml(res.text)).toMatchObject({ code: '040306' });
    });

    it('an unknown or another company\'s order is 404 040080', async () => {
      const other = await create(orderPayload('D-3'), server.tokenB);
      for (const id of ['777777', other]) expect((await server.call('DELETE', `/orders/${id}`)).json.code).toBe('040080');
    });

    it('a finished order is kept: 400 040000', async () => {
      const id = await registered(orderPayload('D-4'));
      server.clock.advance(400 * hour);
      await server.app.services.statusRefresh.refresh();
      expect((await server.call('DELETE', `/orders/${id}`)).json).toMatchObject({ code: '040000' });
      const post = await registered(await sandboxPayload(server.app.db, 'sandbox-post', 'D-5'));
      server.clock.advance(400 * hour);
      await server.app.services.statusRefresh.refresh();
      const finished = await server.call('DELETE', `/orders/${post}`);
      expect(finished.status).toBe(400);
      expect(finished.json.description).toMatch(/is finished/);
    });
  });

  describe('the UI commands', () => {
    it('orders.get tells which changes the order allows now', async () => {
      const express = await registered(orderPayload('K-1'));
      const post = await registered(await sandboxPayload(server.app.db, 'sandbox-post', 'K-2'));
      const ctx = ownerOf(server.companyA.companyId);
      const get = async (orderId: string) => server.app.dispatch('orders.get', ctx, { orderId });
      expect(await get(express)).toMatchObject({ ok: true, value: { order: { orderId: express, statusKey: 'uploaded' }, actions: { update: true, cancel: true, delete: false } } });
      expect(await get(post)).toMatchObject({ ok: true, value: { actions: { update: false, cancel: false, delete: true } } });
      expect(await get('999')).toMatchObject({ ok: false, error: { code: '040080' } });
    });

    it('orders.update, orders.cancel and orders.delete over the browser-mode transport', async () => {
      const id = await registered(orderPayload('K-3'), server.shopToken); // an order of the shop, whose owner the window is
      const call = (name: string, body: unknown) => server.command(name, body);
      expect((await call('orders.update', { orderId: id, ...orderPayload('K-3', (o) => (o.recipient.house = '2')) })).json).toEqual({ ok: true, value: { message: 'ok' } });
      const bad = await call('orders.update', { orderId: id, ...orderPayload('K-3', (o) => (o.order.weight = -1)) });
      expect(bad.json).toMatchObject({ ok: false, error: { code: '040002', errors: [{ field: 'order.weight' }] } });
      expect((await call('orders.cancel', { orderId: id })).json).toMatchObject({ ok: true, value: { orderId: id } });
      expect((await call('orders.cancel', { orderId: id })).json).toMatchObject({ ok: false, error: { code: '040081' } });
      expect((await call('orders.delete', { orderId: id })).json).toMatchObject({ ok: true, value: { orderId: id, deleted: expect.stringMatching(iso) } });
    });

    it('orders.list finds orders created at once by their number, recipient and the service number they were registered with', async () => {
      const numbers = ['SR-1', 'SR-2', 'SR-3'];
      const ids = await Promise.all(numbers.map((n) => create(orderPayload(n, (o) => (o.recipient.contactName = `Зоя Кузнецова-${n}`)), server.shopToken)));
      await server.app.outbox.drain();
      const serviceNumbers: string[] = await Promise.all(ids.map(async (id) => (await server.call('GET', `/orders/${id}`, { token: server.shopToken })).json.order.providerNumber));
      const found = async (search: string) => ((await server.command('orders.list', { search })).json.value.rows as { clientNumber: string }[]).map((r) => r.clientNumber).sort();
      expect(await found('SR-')).toEqual(numbers);
      expect(await found('кузнецова-sr-2')).toEqual(['SR-2']);
      for (const [i, serviceNumber] of serviceNumbers.entries()) {
        expect(serviceNumber).toMatch(/^SBE\d{9}$/);
        expect(await found(serviceNumber)).toEqual([numbers[i]]);
        expect(await found(serviceNumber.slice(-6).toLowerCase())).toEqual([numbers[i]]);
      }
    });
  });

  it('a NUL character anywhere (PostgreSQL keeps none in text) is refused naming the field, in a body and in a query, and nothing is stored', async () => {
    const payload = JSON.stringify(orderPayload('NUL-1')).replace('"NUL-1"', '"NUL-1\\u0000"');
    const created = await server.call('POST', '/v1/orders', { raw: payload, headers: { 'Content-Type': 'application/json' } });
    expect(created.status).toBe(400);
    expect(created.json.errors).toEqual([{ field: 'order.clientNumber', message: expect.stringMatching(/NUL character/) }]);
    // A query's text goes the same way: the status by that clientNumber is refused, not looked up.
    const asked = await server.call('GET', '/v1/orders/status?clientNumber=NUL-1%00');
    expect(asked.status).toBe(400);
    expect(asked.json.errors).toEqual([{ field: 'clientNumber', message: expect.stringMatching(/NUL character/) }]);
    expect((await server.call('GET', '/v1/orders/status?clientNumber=NUL-1')).status).toBe(404);
  });

  it('an order of the common shape (taken the quick way) reads back as the same order sent in a form only the schema reads', async () => {
    const padded = (o: OrderCreateInput) => {
      o.recipient.email = ' anna@example.ru ';
      o.recipient.contactName = '  Анна Смирнова ';
      o.places[0].items[0].description = ' Кружка ';
    };
    const quick = orderPayload('SAME-1', padded);
    // null (not given) and a number as text: the quick check steps aside, the schema makes the same order of them
    const schemaOnly = orderPayload('SAME-2', (o) => {
      padded(o);
      Object.assign(o.recipient, { brandName: null });
      Object.assign(o.order, { weight: String(o.order.weight) });
    });
    expect(quickOrderCreate(JSON.parse(JSON.stringify(quick)))).toBeDefined();
    expect(quickOrderCreate(JSON.parse(JSON.stringify(schemaOnly)))).toBeUndefined();
    const [a, b] = await Promise.all([create(quick), create(schemaOnly)]);
    const [readA, readB] = await Promise.all([a, b].map(async (id) => (await server.call('GET', `/v1/orders/${id}`)).json));
    expect(readA.recipient).toMatchObject({ contactName: 'Анна Смирнова', email: 'anna@example.ru' });
    const sameOrder = (read: Record<string, Record<string, unknown>>) => ({ ...read, orderId: null, order: { ...read.order, clientNumber: null, orderId: null } });
    expect(sameOrder(readA)).toEqual(sameOrder(readB));
  });
});

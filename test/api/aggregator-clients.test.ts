import { startTestServer, type TestServer } from '../helpers/test-server';

// Request by request, what the aggregator's PHP SDK (apiship/apiship-sdk-php) and its WooCommerce module
// (apiship/woocommerce-module) send — paths, query strings, headers and bodies as their source builds
// them — and their answers checked the way those clients read them. The real SDK runs in
// scripts/real-clients.sh; these replays keep the shapes from drifting.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await server.app.services.apiLogins.set(server.companyA, { login: 'shop-site', password: 'site-password-1' });
});
afterAll(async () => {
  await server.close();
});

/** The SDK: base URL `…/v1/` joined with relative paths, Guzzle's JSON body and headers, the raw token. */
const sdk = (method: string, path: string, body?: unknown) =>
  server.call(method, `/v1/${path}`, { body, headers: { platform: 'sdk', ...(body === undefined ? {} : { 'content-type': 'application/json' }) } });

/** The WooCommerce module: `Accept: application/json`, a `platform` header, endpoints concatenated after `v1/`. */
const woo = (method: string, endpoint: string, body?: unknown) =>
  server.call(method, `/v1/${endpoint}`, { body, headers: { Accept: 'application/json', platform: 'woocommerce' } });

/** `date('Y-m-d\TH:i:sP')`: local time with its offset, as PHP writes it (a raw `+` in paths). */
const phpDate = (ms: number) => {
  const d = new Date(ms);
  const offset = -d.getTimezoneOffset();
  const pad = (n: number) => String(Math.abs(n)).padStart(2, '0');
  const local = new Date(ms + offset * 60_000).toISOString().slice(0, 19);
  return `${local}${offset >= 0 ? '+' : '-'}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
};

/** CreateOrderRequest as the SDK's examples/order/test_create_order.php builds it (older top-level items[]). */
const sdkOrder = (clientNumber: string) => ({
  order: {
    clientNumber,
    providerKey: 'sandbox-express',
    description: 'Очень важный заказ',
    height: 10,
    length: 30,
    width: 20,
    weight: 1200,
    pickupType: 1,
    deliveryType: 1,
    tariffId: 103,
    pickupDate: '2030-11-25',
    deliveryTimeStart: '10:00',
    deliveryTimeEnd: '18:00',
    pickupTimeStart: '09:00',
    pickupTimeEnd: '13:00',
    paymentMethod: 1,
  },
  cost: { assessedCost: 2500, deliveryCost: 490.5, deliveryCostVat: 20, codCost: 2990.5, isDeliveryPayedByRecipient: true, paymentMethod: 1 },
  sender: {
    postIndex: '101000', countryCode: 'RU', cityGuid: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5', city: 'Москва', street: 'Тверская', house: '7',
    companyName: 'ООО "Ромашка"', contactName: 'Иван Петров', phone: '79161234567', email: 'info@example.ru', comment: 'Звонить заранее',
  },
  recipient: {
    postIndex: '190000', countryCode: 'RU', city: 'Санкт-Петербург', street: 'Невский проспект', house: '28', office: '5',
    contactName: 'Анна Смирнова', phone: '79219876543', email: 'anna@example.ru', comment: 'Домофон 5', lat: 59.93, lng: 30.33,
  },
  items: [
    { articul: 'TS-01', description: 'Футболка', quantity: 2, assessedCost: 1000, cost: 1000, costVat: 20, weight: 300, markCode: '010460043993125621JgXJ5.T' },
    { articul: 'CP-02', description: 'Кепка', quantity: 1, assessedCost: 500, cost: 500, weight: 200 },
  ],
  extraParams: [{ key: 'insurance', value: '1' }],
});

describe('the PHP SDK', () => {
  it('default adapter: POST login gives the token the other calls then carry', async () => {
    const res = await server.call('POST', '/v1/login', { token: null, body: { login: 'shop-site', password: 'site-password-1' } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ accessToken: server.tokenA });
    const providers = await server.call('GET', '/v1/lists/providers/?limit=20&offset=0&filter=', { token: res.json.accessToken });
    expect(providers.status).toBe(200);
  });

  it('wrong credentials are 401 with the error body the SDK turns into a ResponseException', async () => {
    const res = await server.call('POST', '/v1/login', { token: null, body: { login: 'shop-site', password: 'wrong' } });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ code: '040101', message: expect.any(String) });
  });

  it('lists: providers with a trailing slash, points with fields and stateCheckOff, point types, services by providerKey', async () => {
    const providers = await sdk('GET', 'lists/providers/?limit=20&offset=0&filter=');
    expect(providers.json.rows.length).toBeGreaterThan(0);
    for (const p of providers.json.rows) expect(p).toMatchObject({ key: expect.any(String), name: expect.any(String), description: expect.any(String) });

    const points = await sdk('GET', `lists/points/?limit=5&offset=0&filter=${encodeURIComponent('city=Москва')}&fields=&stateCheckOff=0`);
    expect(points.status, points.text).toBe(200);
    for (const p of points.json.rows) {
      expect(p).toMatchObject({ id: expect.any(Number), providerKey: expect.any(String), address: expect.any(String), city: expect.any(String) });
      expect(p).toHaveProperty('streetType');
      expect(p).toHaveProperty('description');
    }

    const types = await sdk('GET', 'lists/pointTypes');
    expect(types.json.map((t: { id: number }) => t.id)).toEqual([1, 2, 3, 4]);

    const services = await sdk('GET', 'lists/services?providerKey=sandbox-express');
    expect(services.json.length).toBeGreaterThan(0);
    expect(new Set(services.json.map((s: { providerKey: string }) => s.providerKey))).toEqual(new Set(['sandbox-express']));
    for (const s of services.json) expect(s).toMatchObject({ name: expect.any(String), extraParamName: expect.any(String) });
    const all = await sdk('GET', 'lists/services');
    expect(all.json.length).toBeGreaterThan(services.json.length);
  });

  it('calculator: the example\'s body, read as deliveryToDoor[].tariffs[] with numbers', async () => {
    const res = await sdk('POST', 'calculator', {
      from: { cityGuid: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5', city: 'Москва', region: 'Москва', countryCode: 'RU' },
      to: { cityGuid: 'c2deb16a-0330-4f05-821f-1d09c93331e6', city: 'Санкт-Петербург', region: 'Санкт-Петербург', countryCode: 'RU' },
      places: [{ weight: 1500, width: 25, height: 20, length: 30 }],
      assessedCost: 100.6,
      codCost: 0,
      deliveryTypes: [1],
      pickupTypes: [1],
      includeFees: true,
      providerKeys: [],
    });
    expect(res.status, res.text).toBe(200);
    const tariffs = res.json.deliveryToDoor.flatMap((i: { providerKey: string; tariffs: unknown[] }) => i.tariffs);
    expect(tariffs.length).toBeGreaterThan(0);
    for (const t of tariffs) expect(t).toMatchObject({ tariffId: expect.any(Number), tariffName: expect.any(String), deliveryCost: expect.any(Number), daysMin: expect.any(Number), daysMax: expect.any(Number) });
  });

  it('orders: create with the older items[] form, read back with the aggregator\'s names, change (orderId), resend', async () => {
    const created = await sdk('POST', 'orders', sdkOrder('SDK-1'));
    expect(created.status, created.text).toBe(200);
    expect(created.json).toEqual({ orderId: expect.stringMatching(/^\d+$/), created: expect.any(String) });
    const id = created.json.orderId;

    const info = await sdk('GET', `orders/${id}`);
    expect(info.json.order).toMatchObject({ description: 'Очень важный заказ', pickupDate: '2030-11-25', pickupTimeStart: '09:00', pickupTimeEnd: '13:00', paymentMethod: 1 });
    expect(info.json.cost).toMatchObject({ deliveryCostVat: 20, isDeliveryPayedByRecipient: true, paymentMethod: 1 });
    expect(info.json.sender).toMatchObject({ postIndex: '101000', index: '101000', comment: 'Звонить заранее', cityGuid: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5' });
    expect(info.json.recipient).toMatchObject({ postIndex: '190000', comment: 'Домофон 5', lat: 59.93, lng: 30.33 });
    // One place holding the top-level items, of the order's weight and size.
    expect(info.json.places).toEqual([expect.objectContaining({ weight: 1200, length: 30, width: 20, height: 10, items: [expect.objectContaining({ markCode: '010460043993125621JgXJ5.T', costVat: 20 }), expect.any(Object)] })]);
    // The SDK walks extraParams as a list of { key, value } objects.
    expect(info.json.extraParams).toEqual([{ key: 'insurance', value: true }]);

    const changed = await sdk('PUT', `orders/${id}`, sdkOrder('SDK-1'));
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json.orderId).toBe(id);

    const resent = await sdk('POST', `orders/${id}/resend`, { orderId: id });
    expect(resent.status, resent.text).toBe(200);
    expect(resent.json).toEqual({ orderId: id, created: expect.any(String) });
  });

  it('createSync answers with the service\'s number once it has one', async () => {
    const res = await sdk('POST', 'orders/sync', sdkOrder('SDK-SYNC'));
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ orderId: expect.any(String), providerNumber: expect.stringMatching(/.+/), additionalProviderNumber: expect.any(String), created: expect.any(String) });
    const status = await sdk('GET', `orders/${res.json.orderId}/status`);
    expect(status.json.status.key).toBe('uploaded');
    expect(status.json.orderInfo.providerNumber).toBe(res.json.providerNumber);
  });

  it('status methods as the SDK calls them: by id, by clientNumber, many, by date with urlencode(), history', async () => {
    const { orderId } = (await sdk('POST', 'orders/sync', sdkOrder('SDK-ST'))).json;
    expect((await sdk('GET', `orders/${orderId}/status`)).json).toMatchObject({ orderInfo: { orderId, clientNumber: 'SDK-ST' }, status: { key: 'uploaded' } });
    expect((await sdk('GET', 'orders/status?clientNumber=SDK-ST')).json.orderInfo.orderId).toBe(orderId);
    const many = await sdk('POST', 'orders/statuses', { orderIds: [Number(orderId), 999999] });
    expect(many.json.succeedOrders).toHaveLength(1);
    expect(many.json.failedOrders).toEqual([{ orderId: '999999', message: expect.any(String) }]);
    const since = encodeURIComponent(phpDate(server.app.clock.now() - 3_600_000));
    const byDate = await sdk('GET', `orders/statuses/date/${since}`);
    expect(byDate.status, byDate.text).toBe(200);
    expect(byDate.json.some((r: { orderInfo: { orderId: string } }) => r.orderInfo.orderId === orderId)).toBe(true);
    const history = await sdk('GET', `orders/${orderId}/statusHistory?limit=10&offset=0`);
    expect(history.json.rows.map((r: { key: string }) => r.key)).toEqual(['uploaded', 'uploading']);
    expect(history.json.meta).toEqual({ total: 2, offset: 0, limit: 10 });
    const historyByDate = await sdk('GET', `orders/statuses/history/date/${since}?limit=10&offset=0`);
    expect(historyByDate.json.rows.some((r: { orderInfo: { orderId: string }; statuses: unknown[] }) => r.orderInfo.orderId === orderId && r.statuses.length === 2)).toBe(true);
  });

  it('getWaybills: one act per delivery service, read as waybillItems[{ providerKey, file, orderIds }]', async () => {
    const { orderId } = (await sdk('POST', 'orders/sync', sdkOrder('SDK-WB'))).json;
    const res = await sdk('POST', 'orders/waybills', { orderIds: [Number(orderId), 424242] });
    expect(res.status, res.text).toBe(200);
    // WaybillItem::$orderIds and FailedOrder::$orderId are ints in the SDK.
    expect(res.json.waybillItems).toEqual([{ providerKey: 'sandbox-express', file: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1\/files\//), orderIds: [Number(orderId)] }]);
    expect(res.json.failedOrders).toEqual([{ orderId: 424242, message: expect.any(String) }]);
  });

  it('CourierCall: create read as { id, providerNumber }, cancel as { id }', async () => {
    let day = new Date(server.app.clock.now() + 2 * 86_400_000);
    while ([0, 6].includes(day.getDay())) day = new Date(day.getTime() + 86_400_000);
    const res = await sdk('POST', 'courierCall', {
      providerKey: 'sandbox-express', date: day.toISOString().slice(0, 10), timeStart: '10:00', timeEnd: '18:00', weight: 1200, width: 20, height: 10, length: 30,
      countryCode: 'RU', city: 'Москва', street: 'Тверская', house: '7', postIndex: '101000', companyName: 'ООО Ромашка', contactName: 'Иван Петров', phone: '+79161234567',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ id: expect.any(Number), created: expect.any(String), providerNumber: expect.any(String) });
    const canceled = await sdk('POST', `courierCall/${res.json.id}/cancel`);
    expect(canceled.status, canceled.text).toBe(200);
    expect(canceled.json).toMatchObject({ id: res.json.id, canceled: expect.any(String) });
  });

  it('cancel and delete answer { orderId } as the SDK reads them', async () => {
    const { orderId } = (await sdk('POST', 'orders', sdkOrder('SDK-CD'))).json;
    expect((await sdk('GET', `orders/${orderId}/cancel`)).json).toEqual({ orderId, canceled: expect.any(String) });
    expect((await sdk('DELETE', `orders/${orderId}`)).json).toEqual({ orderId, deleted: expect.any(String) });
  });
});

describe('the WooCommerce module', () => {
  // Its "getToken" and "getTokenTest" actions call nothing: they read the token typed into the module's settings.
  // What checks the connection is the order page's `connectionCheck`: GET connections?offset=0&limit=1 with that
  // token; HTTP 200 opens the shipping box, anything else shows the body's `message`.
  it('connection check with the token from the module\'s settings: 200 with a page; a wrong token is 401 with a message to show', async () => {
    const ok = await woo('GET', 'connections?offset=0&limit=1');
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toEqual({ rows: [expect.objectContaining({ providerKey: expect.any(String) })], meta: { total: expect.any(Number), offset: 0, limit: 1 } });
    const wrong = await server.call('GET', '/v1/connections?offset=0&limit=1', { token: 'a-token-typed-wrong', headers: { Accept: 'application/json', platform: 'woocommerce' } });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({ code: '040101', message: expect.stringMatching(/\S/) });
  });

  it('connection check and provider setup: connections listed without secrets, filtered by JSON', async () => {
    const check = await woo('GET', 'connections?offset=0&limit=1');
    expect(check.status, check.text).toBe(200);
    expect(check.json.meta).toMatchObject({ offset: 0, limit: 1 });
    const all = await woo('GET', 'connections?limit=100');
    for (const row of all.json.rows) {
      expect(row).toMatchObject({ providerKey: expect.any(String), name: expect.any(String) });
      expect(JSON.stringify(row)).not.toMatch(/secret|token|password|credential/i);
    }
    const sandbox = await woo('GET', `connections?filter=${encodeURIComponent('{"providerKey":"sandbox-express"}')}&limit=100`);
    expect(sandbox.json.rows).toEqual([expect.objectContaining({ providerKey: 'sandbox-express', id: null, isUseBaseConnect: 1 })]);
    // A built-in service needs no connection: POST answers its row and adds nothing.
    const posted = await woo('POST', 'connections', { providerKey: 'sandbox-express', name: 'Новое соединение для sandbox-express', insuranceRate: 0, cashServiceRate: 0, isUseBaseConnect: 1, connectParams: { additionalProp1: 'string' } });
    expect(posted.status, posted.text).toBe(200);
    expect((await woo('GET', 'connections?limit=100')).json.meta.total).toBe(all.json.meta.total);
    const own = await woo('POST', 'connections', { providerKey: 'cdek', name: 'CDEK', isUseBaseConnect: 0, connectParams: { clientId: 'x', clientSecret: 'y' } });
    expect(own.status).toBe(403);
    expect(own.json.code).toBe('040000');
  });

  it('providers and tariffs as the settings page asks for them', async () => {
    const providers = await woo('GET', 'lists/providers?limit=999');
    expect(providers.status).toBe(200);
    expect(providers.json.rows.every((p: { key: unknown }) => typeof p.key === 'string')).toBe(true);
    const tariffs = await woo('GET', 'lists/tariffs?limit=100&filter=providerKey%3Dsandbox-express');
    expect(tariffs.json.rows.length).toBeGreaterThan(0);
    for (const t of tariffs.json.rows) expect(t).toMatchObject({ id: expect.any(Number), providerKey: 'sandbox-express', name: expect.any(String) });
  });

  it('points for the checkout map, for the warehouse select and one point by id', async () => {
    const map = await woo('GET', `lists/points?limit=1000&filter=${encodeURIComponent('city=Москва;providerKey=sandbox-express;availableOperation=[2,3]')}`);
    expect(map.status, map.text).toBe(200);
    expect(map.json.rows.length).toBeGreaterThan(0);
    for (const p of map.json.rows) expect(p).toMatchObject({ id: expect.any(Number), address: expect.any(String), lat: expect.any(Number), lng: expect.any(Number) });
    const warehouses = await woo('GET', `lists/points?limit=100&filter=city=Москва;providerKey=sandbox-express;availableOperation=[1,3]`);
    expect(warehouses.status, warehouses.text).toBe(200);
    for (const p of warehouses.json.rows) expect(p).toMatchObject({ id: expect.any(Number), address: expect.any(String) });
    const first = map.json.rows[0];
    const one = await woo('GET', `lists/points?filter=providerKey=${first.providerKey};id=${first.id}`);
    expect(one.json.rows).toEqual([expect.objectContaining({ id: first.id })]);
  });

  it('calculator at checkout: providerKeys [] means every service', async () => {
    const body = { from: { countryCode: 'RU', city: 'Москва', addressString: 'Москва, Тверская 7' }, to: { countryCode: 'RU', city: 'Казань' }, places: [{ weight: 1000, length: 20, width: 15, height: 10 }], assessedCost: 1500, codCost: 1500, pickupTypes: [], deliveryTypes: [], providerKeys: [], tariffIds: [] };
    const withEmpty = await woo('POST', 'calculator', body);
    const { providerKeys: _p, tariffIds: _t, pickupTypes: _k, deliveryTypes: _d, ...without } = body;
    const plain = await woo('POST', 'calculator', without);
    expect(withEmpty.status, withEmpty.text).toBe(200);
    expect(withEmpty.json).toEqual(plain.json);
    expect(withEmpty.json.deliveryToPoint.length + withEmpty.json.deliveryToDoor.length).toBeGreaterThan(0);
  });

  it('check order, create (sync), order box, status polling cron, label, cancel and delete', async () => {
    const order = { ...sdkOrder('WC-1001'), items: undefined, places: [{ weight: 1200, items: sdkOrder('').items }] };
    const valid = await woo('POST', 'orders/validate', order);
    expect(valid.status, valid.text).toBe(200);
    expect(valid.json).toEqual({ valid: true });
    const invalid = await woo('POST', 'orders/validate', { ...order, order: { ...order.order, tariffId: 999999 } });
    expect(invalid.status).toBe(400);
    expect(invalid.json.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: expect.stringContaining('tariffId') })]));
    expect((await woo('GET', 'orders/status?clientNumber=WC-1001')).status).toBe(404); // validate stored nothing

    const created = await woo('POST', 'orders/sync', order);
    expect(created.status, created.text).toBe(200);
    const id = Number(created.json.orderId);
    expect(id).toBeGreaterThan(0);
    expect(typeof created.json.providerNumber).toBe('string');

    const box = await woo('GET', `orders/${id}`);
    expect(box.json.order).toMatchObject({ pickupDate: '2030-11-25', providerNumber: created.json.providerNumber });
    expect((await woo('GET', `orders/${id}/status`)).json.status.key).toBe('uploaded');
    expect((await woo('GET', `orders/${id}/statusHistory`)).json.rows.length).toBe(2);

    // The cron: `/orders/statuses/history/date/$query_date?offset=$offset` after `v1/` — two slashes, a raw `+`.
    const cron = await woo('GET', `/orders/statuses/history/date/${phpDate(server.app.clock.now() - 600_000)}?offset=0`);
    expect(cron.status, cron.text).toBe(200);
    expect(cron.json.meta).toMatchObject({ offset: 0, total: expect.any(Number) });
    expect(cron.json.rows.some((r: { orderInfo: { orderId: string; clientNumber: string } }) => r.orderInfo.orderId === String(id) && r.orderInfo.clientNumber === 'WC-1001')).toBe(true);

    const label = await woo('POST', 'orders/labels', { orderIds: [id], format: 'pdf' });
    expect(label.status, label.text).toBe(200);
    expect(label.json).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1\/files\//), failedOrders: [] });

    // A taken clientNumber: the module looks the order up by clientNumber.
    const again = await woo('POST', 'orders/sync', order);
    expect(again.status).toBe(400);
    expect(again.json.code).toBe('040002');
    expect((await woo('GET', 'orders/status?clientNumber=WC-1001')).json.orderInfo.orderId).toBe(String(id));

    expect((await woo('GET', `orders/${id}/cancel`)).json.orderId).toBe(String(id));
    // On 040081 the module re-reads the status.
    expect((await woo('GET', `orders/${id}/cancel`)).json.code).toBe('040081');
    const deleted = await server.call('DELETE', `/v1/orders/${id}`, { headers: { Accept: 'application/json', platform: 'woocommerce', 'Content-Type': 'application/json' } });
    expect(deleted.status, deleted.text).toBe(200);
  });
});

describe('what neither the document nor ShipDesk has', () => {
  it('an operation ShipDesk does not have is 404 with the error body, not 405', async () => {
    for (const [method, path] of [['POST', '/v1/orders/unknownThing'], ['GET', '/v1/connections/cdek'], ['POST', '/v1/orders/42/unknownThing']]) {
      const res = await server.call(method, path, { body: method === 'POST' ? {} : undefined });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(404);
      expect(res.json).toMatchObject({ code: '040016', message: expect.any(String) });
    }
  });
});

describe('POST /login under guessing', () => {
  // Last in the file: it leaves this address limited for a minute of the server's clock.
  it('after 10 failures within a minute the address waits: 429 040429, even with the right password', async () => {
    // The earlier test already spent one failure of this address and this login.
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await server.call('POST', '/v1/login', { token: null, body: { login: 'shop-site', password: `guess-${i}` } })).status);
    expect(statuses).toEqual([...Array(9).fill(401), 429]);
    const limited = await server.call('POST', '/v1/login', { token: null, body: { login: 'shop-site', password: 'site-password-1' } });
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ code: '040429', description: expect.stringMatching(/try again/) });
  });
});

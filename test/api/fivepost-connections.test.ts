import { PDFDocument } from 'pdf-lib';
import type { Connection, ConnectionKindInfo, ConnectionTestResult } from '../../shared/contract/connections';
import type { PrintedFileAnswer } from '../../shared/contract/labels';
import { messageText } from '../../shared/messages';
import type { Result } from '../../shared/result';
import { orderCreateSchema } from '../../shared/schemas/order';
import { ordersWorkbook, sampleOrder, senderDefaults } from '../fixtures/xlsx/orders-workbook';
import { fivePostOrder } from '../fakes/fivepost/orders';
import { FAKE_FIVEPOST_API_KEY, FAKE_FIVEPOST_WAREHOUSE, startFakeFivePost, type FakeFivePost } from '../fakes/fivepost/server';
import { drainOutbox } from '../helpers/drain-outbox';
import { startTestServer } from '../helpers/test-server';

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`command failed: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

const HOUR = 60 * 60 * 1000;

describe('5Post connections: the API key in Settings, sealed; its points, prices, orders through the outbox and tracking', () => {
  let fake: FakeFivePost;
  let env: Awaited<ReturnType<typeof startTestServer>>;
  beforeEach(async () => {
    env = await startTestServer({ carrierTuning: { fivepost: { timeoutMs: 5_000, pageSize: 15 } } });
    fake = await startFakeFivePost({ now: env.clock.now });
  });
  afterEach(async () => {
    await env.close();
    await fake.close();
  });
  const run = (name: string, input: unknown = {}) => env.app.dispatch(name, env.shop, input);
  const account = (apiKey = FAKE_FIVEPOST_API_KEY) => ({ providerKey: 'fivepost', name: '5Post', baseUrl: fake.url, credentials: { apiKey }, settings: { warehouseId: FAKE_FIVEPOST_WAREHOUSE } });

  it('offered in Settings with its fields and a test mode; connected, the key is sealed, "test connection" gets a JWT; the service lists its operations, points only, and its tariff; a wrong key fails the check with 5Post\'s words', async () => {
    const kind = value<ConnectionKindInfo[]>(await run('connections.kinds')).find((k) => k.key === 'fivepost')!;
    expect(kind).toMatchObject({ name: '5Post', testMode: true, publicTestAccount: false });
    expect(kind.fields.map((f) => [f.name, f.secret, f.required])).toEqual([['apiKey', true, 'always'], ['warehouseId', false, 'always'], ['parallelCalls', false, 'never']]);
    const missing = await run('connections.create', { providerKey: 'fivepost', name: '5Post', baseUrl: fake.url, credentials: {} });
    expect(!missing.ok && missing.error.errors?.map((e) => e.field)).toEqual(expect.arrayContaining(['credentials.apiKey', 'settings.warehouseId']));

    const created = value<Connection>(await run('connections.create', account()));
    const stored = await env.app.db.selectFrom('provider_connections').selectAll().executeTakeFirstOrThrow();
    expect(stored.credentials).not.toContain(FAKE_FIVEPOST_API_KEY);
    expect(value<ConnectionTestResult>(await run('connections.test', { id: created.id }))).toMatchObject({ ok: true, message: 'Connected to 5Post', key: 'conn.connectedFivePost', tokenExpiresIn: 3600 });

    const { rows } = (await env.call('GET', '/v1/lists/providers?filter=key=fivepost')).json;
    expect(rows[0]).toMatchObject({ key: 'fivepost', name: '5Post', capabilities: { deliveryTypes: [2], pickupTypes: [1], cod: true } });
    expect([...rows[0].capabilities.operations].sort()).toEqual(['cancel', 'create', 'find', 'handoverActs', 'labels', 'rates', 'referenceData', 'track']);
    const tariffs = (await env.call('GET', `/v1/lists/tariffs?filter=${encodeURIComponent('providerKey=fivepost')}`)).json.rows;
    expect(tariffs.map((t: { id: number; deliveryType: number }) => [t.id, t.deliveryType])).toEqual([[9401, 2]]);

    // Test mode: the same key against 5Post's pre-production host (here the fake, named by the address).
    const preprod = value<Connection>(await run('connections.create', { ...account(), name: '5Post, тест', testMode: true }));
    const tested = value<ConnectionTestResult>(await run('connections.test', { id: preprod.id }));
    expect(tested).toMatchObject({ ok: true, key: 'conn.connectedFivePostTest' });
    expect(messageText({ key: tested.key! }, 'ru')).toBe('Подключено к 5Post (тестовый сервер)');

    const wrong = value<Connection>(await run('connections.create', { ...account('not-ours'), name: 'Чужой' }));
    const test = value<ConnectionTestResult>(await run('connections.test', { id: wrong.id }));
    expect(test.ok).toBe(false);
    expect(test.message).toMatch(/Invalid ApiKey/);
  });

  it('its points are synced page by page with their types; the price comparison offers it to a point; an order to a point goes out through the outbox, a door order is refused, statuses.refresh follows it, its label is 5Post\'s', async () => {
    value<Connection>(await run('connections.create', account()));
    await env.app.services.connections.refreshPoints();
    const points = await env.app.db.selectFrom('points').select(['id', 'code', 'type']).where('source', '=', 'fivepost').execute();
    expect(points).toHaveLength(40);
    expect(new Set(points.map((p) => p.type))).toEqual(new Set([1, 2]));
    expect(fake.http.byRoute['POST /api/v1/pickuppoints/query']).toBe(3);
    const idOf = new Map(points.map((p) => [p.code, p.id]));
    const target = idOf.get(fake.points().find((p) => p.address.city === 'Казань' && p.cashAllowed)!.id)!;

    const calc = value<{ deliveryToDoor: { providerKey: string }[]; deliveryToPoint: { providerKey: string; tariffs: { tariffId: number; deliveryCost: number; pointIds: number[] }[] }[] }>(
      await run('calculator.calculate', { from: { city: 'Москва' }, to: { city: 'Казань' }, places: [{ weight: 1500 }], providerKeys: ['fivepost'] }),
    );
    expect(calc.deliveryToDoor).toEqual([]);
    expect(calc.deliveryToPoint).toEqual([{ providerKey: 'fivepost', tariffs: [expect.objectContaining({ tariffId: 9401, deliveryCost: 238.8 })] }]);
    expect(calc.deliveryToPoint[0].tariffs[0].pointIds).toContain(target);

    const door = await run('orders.create', fivePostOrder('FC-DOOR', target, (o) => { o.order.deliveryType = 1; delete o.order.pointOutId; }));
    expect(!door.ok && door.error.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'order.deliveryType', key: 'rule.noDoorDelivery' })]));

    await env.app.services.orders.create(env.shop, orderCreateSchema.parse(fivePostOrder('FC-POINT', target)));
    await drainOutbox(env.app, env.clock);
    const row = () => env.app.db.selectFrom('orders').select(['id', 'client_number', 'status_key', 'provider_number', 'barcode']).executeTakeFirstOrThrow();
    expect(await row()).toMatchObject({ client_number: 'FC-POINT', status_key: 'uploaded', provider_number: fake.order('FC-POINT')!.orderId, barcode: 'FC-POINT-1' });
    expect(fake.order('FC-POINT')!.body).toMatchObject({ receiverLocation: fake.points().find((p) => idOf.get(p.id) === target)!.id, senderLocation: FAKE_FIVEPOST_WAREHOUSE });

    env.clock.advance(49 * HOUR);
    value(await run('statuses.refresh'));
    expect((await row()).status_key).toBe('readyForRecipient');
    env.clock.advance(12 * HOUR);
    value(await run('statuses.refresh'));
    expect((await row()).status_key).toBe('delivered');

    const labels = value<PrintedFileAnswer>(await run('orders.labels', { orderIds: [String((await row()).id)], format: 'pdf' }));
    expect(labels.failedOrders).toEqual([]);
    expect((await PDFDocument.load(Buffer.from(labels.base64!, 'base64'))).getPageCount()).toBe(1);
    expect(fake.http.byRoute['POST /api/v1/orderLabels/bySenderOrderId']).toBe(1);
  });

  it('imported from a sheet naming the tariff by its name and the point by its id, its orders go out, wait on the dispatch screen, are handed over with a drawn act, and show on the dashboard by its name', async () => {
    value<Connection>(await run('connections.create', account()));
    await env.app.services.connections.refreshPoints();
    const points = await env.app.db.selectFrom('points').select(['id', 'code']).where('source', '=', 'fivepost').execute();
    const target = points.find((p) => p.code === fake.points().find((f) => f.address.city === 'Санкт-Петербург' && f.cashAllowed)!.id)!.id;
    const toPoint = (o: ReturnType<typeof sampleOrder>) => {
      Object.assign(o.fields, { 'order.tariffId': '5Post: до постамата или пункта выдачи', 'order.deliveryType': 'ПВЗ', 'order.pickupType': 1, 'order.pointOutId': target, 'order.deliveryTimeStart': undefined, 'order.deliveryTimeEnd': undefined });
    };
    const { buffer, columnMap } = await ordersWorkbook([sampleOrder('FI-1', toPoint), sampleOrder('FI-2', toPoint)], { itemsNewRow: true });
    const { importId } = value<{ importId: number }>(await run('import.preview', { file: { base64: buffer.toString('base64'), name: 'shop.xlsx' } }));
    value(await run('import.run', { importId, settings: { providerKey: 'fivepost', columnSettings: { dateFormat: 'd.m.Y', timeFormat: 'H:i', nameFormat: false, itemsNewRow: true, rowStart: 3 }, columnMap, defaultData: senderDefaults } }));
    let state: { status: string; created: number; failed: number; resultItems: unknown[] } | undefined;
    for (let i = 0; i < 400 && !['done', 'failed', 'canceled'].includes(state?.status ?? ''); i++) {
      if (i) await new Promise((r) => setTimeout(r, 25));
      state = value(await run('import.results', { importId }));
    }
    expect(state).toMatchObject({ status: 'done', created: 2, failed: 0 });
    await drainOutbox(env.app, env.clock);
    expect(fake.registrations('FI-1') + fake.registrations('FI-2')).toBe(2);
    expect(fake.order('FI-1')!.body).toMatchObject({ receiverLocation: points.find((p) => p.id === target)!.code, cost: { paymentType: 'CASH', paymentValue: 2990.5 } });

    const { groups } = value<{ groups: { providerKey: string; orders: { orderId: string }[] }[] }>(await run('dispatch.pending'));
    const group = groups.find((g) => g.providerKey === 'fivepost')!;
    expect(group.orders).toHaveLength(2);
    const today = value<{ awaitingHandover: { byService: { providerKey: string; serviceName: string; orders: number }[] } }>(await run('dashboard.today'));
    expect(today.awaitingHandover.byService).toContainEqual({ providerKey: 'fivepost', serviceName: '5Post', orders: 2 });
    const orderIds = group.orders.map((o) => o.orderId);
    expect(value<{ orders: number }>(await run('dispatch.handOver', { providerKey: 'fivepost', orderIds })).orders).toBe(2);
    // 5Post has no handover act call: ShipDesk draws the act.
    const act = value<PrintedFileAnswer>(await run('orders.waybills', { orderIds }));
    expect(act.failedOrders).toEqual([]);
    expect((await PDFDocument.load(Buffer.from(act.base64!, 'base64'))).getPageCount()).toBeGreaterThan(0);
  });
});

import { createServer, type Server } from 'node:http';
import type { AppEvent } from '../../electron/core/events';
import type { AddressInfo } from 'node:net';
import { orderCreateSchema } from '../../shared/schemas/order';
import { createMigratedTestDatabase, onPostgres, testPostgresUrl } from '../../electron/core/store/test-engines';
import { orderPayload } from '../helpers/payloads';
import { createTestApp } from '../helpers/test-app';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** A shop's site on this computer that counts the calls it gets, by delivery id. */
async function startCountingSite() {
  const deliveries: number[] = [];
  const http: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { deliveryId: number }).deliveryId);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/hook`, deliveries, close: () => new Promise<void>((resolve) => http.close(() => resolve())) };
}

/** Resolves with the first event on the app's bus that `matches` (one another instance published reaches it by NOTIFY). */
function heard(app: TestApp, matches: (event: AppEvent) => boolean): Promise<AppEvent> {
  return new Promise((resolve) => {
    const stop = app.app.events.subscribe((event) => {
      if (!matches(event)) return;
      stop();
      resolve(event);
    });
  });
}

/**
 * Two ShipDesk apps (two instances, as two PCs of a shop would run) on one PostgreSQL database, in this process: the
 * work both would do on their own is done once between them.
 */
describe.skipIf(!testPostgresUrl)(onPostgres('two apps on one PostgreSQL database'), () => {
  let database: { url: string; drop(): Promise<void> };
  const apps: TestApp[] = [];
  let site: Awaited<ReturnType<typeof startCountingSite>> | undefined;
  beforeEach(async () => {
    database = await createMigratedTestDatabase(testPostgresUrl!);
    for (let i = 0; i < 2; i++) apps.push(await createTestApp({ database: database.url }));
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    await site?.close();
    await database.drop();
  });

  it('a status webhook is called once for each status, though both apps deliver at the same moment', async () => {
    const [a, b] = apps;
    site = await startCountingSite();
    await a.app.services.settings.update(a.shop, { preferences: { allowLocalWebhooks: true } });
    await a.app.services.webhooks.register(a.shop, { url: site.url, type: 'ORDER_STATUS' });
    for (let i = 1; i <= 12; i++) await a.app.services.orders.create(a.shop, orderCreateSchema.parse(orderPayload(`TWO-${i}`)));

    // Both instances' workers find the same twelve calls due.
    const delivered = await Promise.all([a.app.webhookDelivery.drain(), b.app.webhookDelivery.drain()]);
    expect(delivered[0] + delivered[1]).toBe(12);
    expect(site.deliveries).toHaveLength(12);
    expect(new Set(site.deliveries).size).toBe(12);
  });

  it('the other app’s windows follow the outbox, a status refresh and its notices run in one app', async () => {
    const [a, b] = apps;
    const { orderId } = await a.app.services.orders.create(a.shop, orderCreateSchema.parse(orderPayload('FOLLOW-1')));
    const outboxState = heard(b, (e) => e.type === 'outbox.state' && (e.orderIds ?? []).includes(orderId));
    await a.app.outbox.drain();
    expect(await outboxState).toMatchObject({ companyId: b.shop.companyId, pending: 0 });

    a.clock.advance(30 * 86_400_000); // the sandbox shipment has reached its end
    const progress = heard(b, (e) => e.type === 'refresh.progress' && e.done === 1);
    const notice = heard(b, (e) => e.type === 'orders.notice');
    expect(await a.app.services.scheduler.refreshNow(a.shop.companyId)).toMatchObject({ checked: 1, changed: 1 });
    expect(await progress).toEqual({ type: 'refresh.progress', companyId: b.shop.companyId, done: 1, total: 1 });
    // Its end, whichever the sandbox chose for it.
    expect(await notice).toEqual({ type: 'orders.notice', companyId: b.shop.companyId, kind: expect.stringMatching(/^(delivered|returned)$/), orderIds: [orderId], clientNumbers: ['FOLLOW-1'] });
  });

  it('points written in one app drop the other app’s points caches', async () => {
    const [a, b] = apps;
    const reference = b.app.stores.reference;
    const pointsChanged = reference.pointsChanged.bind(reference);
    const dropped = new Promise<void>((resolve) => {
      reference.pointsChanged = () => {
        pointsChanged();
        resolve();
      };
    });
    await a.app.stores.reference.closePointsExcept('sandbox-express', new Set());
    await dropped;
  });

  it('tariffs written in one app are what the other app checks orders against, once it hears of them', async () => {
    const [a, b] = apps;
    const tariff = { ...(await a.app.stores.reference.tariffs('sandbox-express')).at(0)!, id: 9_700_101, name: 'Старое имя' };
    await a.app.stores.reference.replaceTariffs('two-apps', [tariff]);
    const reference = b.app.stores.reference;
    expect(await reference.findTariff('sandbox-express', tariff.id)).toMatchObject({ name: 'Старое имя' }); // kept in b's memory now
    const tariffsChanged = reference.tariffsChanged.bind(reference);
    const told = new Promise<void>((resolve) => {
      reference.tariffsChanged = () => {
        tariffsChanged();
        resolve();
      };
    });
    await a.app.stores.reference.replaceTariffs('two-apps', [{ ...tariff, name: 'Новое имя' }]);
    await told;
    expect(await reference.findTariff('sandbox-express', tariff.id)).toMatchObject({ name: 'Новое имя' });
  });

  it('a connection added in one app is a delivery service of the other at once, with no restart', async () => {
    const [a, b] = apps;
    const services = () => b.app.providers.list().map((p) => p.key);
    expect(services()).not.toContain('cdek');
    const created = await a.app.dispatch('connections.create', a.shop, { providerKey: 'cdek', name: 'Склад на Лесной', baseUrl: 'http://127.0.0.1:9', credentials: { clientId: 'id', clientSecret: 'secret' } });
    expect(created.ok).toBe(true);
    await vi.waitFor(() => expect(services()).toContain('cdek'), { timeout: 10_000, interval: 50 });
  });
});

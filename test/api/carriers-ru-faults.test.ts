import { manualClock } from '../../electron/core/clock';
import type { CallInfo } from '../../electron/core/providers/transport';
import { orderCreateSchema, type OrderCreateInput } from '../../shared/schemas/order';
import type { FaultKind } from '../fakes/fake-http';
import { boxberryOrder } from '../fakes/boxberry/orders';
import { FAKE_BOXBERRY_TOKEN, startFakeBoxberry } from '../fakes/boxberry/server';
import { russianPostOrder } from '../fakes/russian-post/orders';
import { FAKE_POST_OFFICE, FAKE_POST_TOKEN, FAKE_POST_USER_KEY, startFakeRussianPost } from '../fakes/russian-post/server';
import { createNodeHttpFetch } from '../fakes/cdek/node-fetch';
import { fivePostOrder } from '../fakes/fivepost/orders';
import { FAKE_FIVEPOST_API_KEY, FAKE_FIVEPOST_WAREHOUSE, startFakeFivePost } from '../fakes/fivepost/server';
import { yandexOrder } from '../fakes/yandex-delivery/orders';
import { FAKE_YANDEX_TOKEN, startFakeYandex } from '../fakes/yandex-delivery/server';
import { drainOutbox } from '../helpers/drain-outbox';
import { createTestApp } from '../helpers/test-app';

/** Orders per service: enough that every fault kind hits creates several hundred times. */
const ORDERS = 500;
// FAULT_SEED=n runs another fault pattern.
const SEED = Number(process.env.FAULT_SEED ?? 20_261_125);
const KINDS: FaultKind[] = ['500', '502', '503', '429', 'hang', 'hang-after'];

/** What the scenario needs of a service's fake. */
interface Fake {
  url: string;
  http: { requests: number; faults: Partial<Record<FaultKind, number>>; byRoute: Record<string, number> };
  setFaultRate(rate: number): void;
  registrationCounts(): Map<string, number>;
  close(): Promise<void>;
}

interface Service {
  key: string;
  /** How many orders it registers (ORDERS but where one registration takes more calls, each with its own chance of a fault). */
  orders: number;
  start(now: () => number): Promise<Fake & { numberOf(clientNumber: string): string | undefined; dropOffCode(): string }>;
  /** The connection's secrets and settings. */
  account: { credentials: Record<string, string>; settings?: Record<string, string> };
  order(clientNumber: string, pointInId: number): OrderCreateInput;
}

const services: Service[] = [
  {
    key: 'yandex-delivery',
    // Two calls a registration (offers/create, offers/confirm) and a find before each retry (requests/info), each with
    // its own chance of a fault: 300 orders make about as many outbox attempts as the others' 500 (1,176 at 500).
    orders: 300,
    account: { credentials: { token: FAKE_YANDEX_TOKEN } },
    async start(now) {
      const fake = await startFakeYandex({ now, faults: { rate: 0, seed: SEED, kinds: KINDS } });
      return { ...fake, numberOf: (n) => fake.request(n)?.id, dropOffCode: () => fake.points().find((p) => p.available_for_dropoff)!.id };
    },
    order: (n, pointInId) => yandexOrder(n, { pointInId }),
  },
  {
    key: 'boxberry',
    orders: ORDERS,
    account: { credentials: { token: FAKE_BOXBERRY_TOKEN } },
    async start(now) {
      const fake = await startFakeBoxberry({ now, faults: { rate: 0, seed: SEED, kinds: KINDS } });
      return { ...fake, numberOf: (n) => fake.parcel(n)?.track, dropOffCode: () => fake.points().find((p) => p.CityName === 'Москва' && p.ReceptionLaP === 'Yes')!.Code };
    },
    order: (n, pointInId) => boxberryOrder(n, { pointInId }),
  },
  {
    key: 'russian-post',
    orders: ORDERS,
    account: { credentials: { accessToken: FAKE_POST_TOKEN, userKey: FAKE_POST_USER_KEY }, settings: { postofficeCode: FAKE_POST_OFFICE } },
    async start(now) {
      const fake = await startFakeRussianPost({ now, faults: { rate: 0, seed: SEED, kinds: KINDS } });
      return { ...fake, numberOf: (n) => (fake.order(n) ? String(fake.order(n)!.id) : undefined), dropOffCode: () => FAKE_POST_OFFICE };
    },
    // Handed over at the shop's office (named as the drop-off point), to the door.
    order: (n, pointInId) => russianPostOrder(n, {}, (o) => { o.order.pointInId = pointInId; }),
  },
  {
    key: 'fivepost',
    orders: ORDERS,
    account: { credentials: { apiKey: FAKE_FIVEPOST_API_KEY }, settings: { warehouseId: FAKE_FIVEPOST_WAREHOUSE } },
    async start(now) {
      const fake = await startFakeFivePost({ now, faults: { rate: 0, seed: SEED, kinds: KINDS } });
      return { ...fake, numberOf: (n) => fake.order(n)?.orderId, dropOffCode: () => fake.points().find((p) => p.address.city === 'Москва' && p.cashAllowed)!.id };
    },
    // 5Post collects from the shop's warehouse: the point named here is where the parcels go.
    order: (n, pointId) => fivePostOrder(n, pointId),
  },
];

/**
 * The outbox's promise for each service under a bad network: with its fake failing 30 % of all calls (5xx, 429,
 * requests that hang, and replies lost after the service did the work), every order ends up registered exactly
 * once — counted at the fake — none lost, none left in the queue. Real HTTP, real SQLite, the real outbox and the
 * connection-backed adapter; the clock is moved past each backoff by hand.
 */
describe.each(services)('$key under faults: $orders orders through the real outbox', (service) => {
  let fake: Awaited<ReturnType<Service['start']>> | undefined;
  let env: Awaited<ReturnType<typeof createTestApp>> | undefined;
  const http = createNodeHttpFetch();
  afterEach(async () => {
    await env?.close();
    await fake?.close();
    http.close();
  });

  it('with 30 % of calls failing (5xx, 429, timeouts, lost replies; seeded), every order is registered exactly once, none lost, none stuck', { timeout: 240_000 }, async () => {
    const clock = manualClock();
    fake = await service.start(clock.now);
    const calls: CallInfo[] = [];
    env = await createTestApp({ clock, carrierTuning: { [service.key]: { fetch: http.fetch, timeoutMs: 250, onCall: (c: CallInfo) => calls.push(c) } } });
    const { app, shop } = env;
    const created = await app.dispatch('connections.create', shop, { providerKey: service.key, name: 'Основной', baseUrl: fake.url, ...service.account });
    expect(created.ok).toBe(true);
    await app.services.connections.refreshPoints();
    const pointInId = (await app.db.selectFrom('points').select('id').where('code', '=', fake.dropOffCode()).where('source', '=', service.key).executeTakeFirstOrThrow()).id;

    fake.setFaultRate(0.3);
    for (let i = 1; i <= service.orders; i++) await app.services.orders.create(shop, orderCreateSchema.parse(service.order(`F-${String(i).padStart(4, '0')}`, pointInId)));
    const { attempts, passes } = await drainOutbox(app, clock);

    // Nothing stuck, nothing lost.
    expect(await app.outbox.state()).toEqual({ pending: 0, waitingForConnection: false });
    const orders = await app.db.selectFrom('orders').select(['client_number', 'status_key', 'provider_number']).execute();
    expect(orders).toHaveLength(service.orders);
    expect(orders.filter((o) => o.status_key !== 'uploaded')).toEqual([]);

    // Exactly once, counted at the service; each order carries the number the service gave it.
    const counts = fake.registrationCounts();
    expect(counts.size).toBe(service.orders);
    expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
    for (const o of orders) expect(o.provider_number).toBe(fake.numberOf(o.client_number));

    // The faults really happened, at about the rate asked, lost replies among them.
    const faults = Object.values(fake.http.faults).reduce((a, b) => a + (b ?? 0), 0);
    expect(faults / fake.http.requests).toBeGreaterThan(0.25);
    expect(faults / fake.http.requests).toBeLessThan(0.35);
    expect(fake.http.faults['hang-after']).toBeGreaterThan(0);
    console.log(
      `${service.key} faults: ${service.orders} orders, ${attempts} outbox attempts in ${passes} passes; ${fake.http.requests} calls at the fake, ${faults} faulted ` +
        `(${JSON.stringify(fake.http.faults)}), ${calls.filter((c) => c.failure === 'timeout').length} client timeouts; ${JSON.stringify(fake.http.byRoute)}`,
    );
  });
});

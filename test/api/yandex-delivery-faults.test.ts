import { manualClock } from '../../electron/core/clock';

import type { CallInfo } from '../../electron/core/providers/transport';
import type { YandexTuning } from '../../electron/core/providers/yandex-delivery/kind';
import { orderCreateSchema } from '../../shared/schemas/order';
import { createNodeHttpFetch } from '../fakes/cdek/node-fetch';
import { yandexOrder } from '../fakes/yandex-delivery/orders';
import { FAKE_YANDEX_TOKEN, startFakeYandex, type FakeYandex } from '../fakes/yandex-delivery/server';
import { drainOutbox } from '../helpers/drain-outbox';
import { createTestApp } from '../helpers/test-app';

const ORDERS = 500;
// FAULT_SEED=n runs another fault pattern.
const SEED = Number(process.env.FAULT_SEED ?? 20_261_125);

/**
 * The outbox's promise with Yandex Delivery under a bad network: with the platform failing 30 % of all calls (5xx,
 * 429, requests that hang, and replies lost after the platform booked), every order ends up booked exactly once —
 * counted at the fake — none lost, none left in the queue. Real HTTP, real SQLite, the real outbox and the connection-backed adapter; the clock is
 * moved past each backoff by hand.
 */
describe('Yandex Delivery under faults: 500 orders through the real outbox', () => {
  let fake: FakeYandex;
  let env: Awaited<ReturnType<typeof createTestApp>>;
  const http = createNodeHttpFetch();
  afterEach(async () => {
    await env?.close();
    await fake?.close();
    http.close();
  });

  it('with 30 % of calls failing (5xx, 429, timeouts, lost replies; seeded), every order is booked exactly once, none lost, none stuck', { timeout: 240_000 }, async () => {
    const clock = manualClock();
    // No faults while the points are synced; then 30 % of every call.
    fake = await startFakeYandex({ now: clock.now, faults: { rate: 0, seed: SEED, kinds: ['500', '502', '503', '429', 'hang', 'hang-after'] } });
    const calls: CallInfo[] = [];
    env = await createTestApp({ clock, carrierTuning: { 'yandex-delivery': { fetch: http.fetch, timeoutMs: 60, onCall: (c) => calls.push(c) } satisfies YandexTuning } });
    const { app, shop } = env;
    const created = await app.dispatch('connections.create', shop, { providerKey: 'yandex-delivery', name: 'Основной', baseUrl: fake.url, credentials: { token: FAKE_YANDEX_TOKEN } });
    expect(created.ok).toBe(true);
    await app.services.connections.refreshPoints();
    const dropOff = fake.points().find((p) => p.available_for_dropoff)!;
    const pointInId = (await app.db.selectFrom('points').select('id').where('code', '=', dropOff.id).executeTakeFirstOrThrow()).id;

    fake.setFaultRate(0.3);
    for (let i = 1; i <= ORDERS; i++) {
      await app.services.orders.create(shop, orderCreateSchema.parse(yandexOrder(`YF-${String(i).padStart(4, '0')}`, { pointInId })));
    }

    const { attempts, passes } = await drainOutbox(app, clock);

    // Nothing stuck, nothing lost.
    expect(await app.outbox.state()).toEqual({ pending: 0, waitingForConnection: false });
    const orders = await app.db.selectFrom('orders').select(['client_number', 'status_key', 'provider_number']).execute();
    expect(orders).toHaveLength(ORDERS);
    expect(orders.filter((o) => o.status_key !== 'uploaded')).toEqual([]);

    // Exactly once, counted at the platform; each order carries the request id the platform gave it.
    const counts = fake.registrationCounts();
    expect(counts.size).toBe(ORDERS);
    expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
    for (const o of orders) expect(o.provider_number).toBe(fake.request(o.client_number)!.id);

    // The faults really happened, at about the rate asked, lost replies among them.
    const faults = Object.values(fake.http.faults).reduce((a, b) => a + (b ?? 0), 0);
    const rate = faults / fake.http.requests;
    expect(rate).toBeGreaterThan(0.25);
    expect(rate).toBeLessThan(0.35);
    expect(fake.http.faults['hang-after']).toBeGreaterThan(0);
    console.log(
      `yandex faults: ${ORDERS} orders, ${attempts} outbox attempts in ${passes} passes; ${fake.http.requests} calls at the fake, ${faults} faulted ` +
        `(${JSON.stringify(fake.http.faults)}), ${calls.filter((c) => c.failure === 'timeout').length} client timeouts; ${fake.stats.duplicateRefusals} duplicate numbers adopted; ` +
        `${JSON.stringify(fake.http.byRoute)}`,
    );
  });
});

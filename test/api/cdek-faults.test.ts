import { manualClock } from '../../electron/core/clock';
import type { CdekCallInfo } from '../../electron/core/providers/cdek/client';
import { orderCreateSchema } from '../../shared/schemas/order';
import { createNodeHttpFetch } from '../fakes/cdek/node-fetch';
import { cdekOrder } from '../fakes/cdek/orders';
import { FAKE_TEST_ACCOUNT, startFakeCdek, type FakeCdek } from '../fakes/cdek/server';
import { drainOutbox } from '../helpers/drain-outbox';
import { createTestApp } from '../helpers/test-app';

const ORDERS = 1_000;
// FAULT_SEED=n runs another fault pattern; PLATFORM_FETCH=1 uses the platform fetch instead of the lean one.
const SEED = Number(process.env.FAULT_SEED ?? 20_260_301);

/**
 * The outbox's promise under a bad network: with CDEK failing 30 % of all calls (5xx, requests that hang,
 * and replies that are lost after CDEK did the work), every order ends up registered exactly once — counted
 * at the fake — none is lost and none is left in the queue. Real HTTP, real SQLite, the real outbox and the
 * connection-backed adapter; the clock is moved past each backoff by hand.
 */
describe('CDEK under faults: 1,000 orders through the real outbox', () => {
  let fake: FakeCdek;
  let env: Awaited<ReturnType<typeof createTestApp>>;
  const http = createNodeHttpFetch();
  afterEach(async () => {
    await env?.close();
    await fake?.close();
    http.close();
  });

  it('with 30 % of calls failing (5xx and timeouts, seeded), every order is registered exactly once, none lost, none stuck', { timeout: 120_000 }, async () => {
    const clock = manualClock();
    fake = await startFakeCdek({
      now: clock.now,
      validation: 'next-get',
      cdekNumberAfterGets: 1,
      faults: { rate: 0.3, seed: SEED, kinds: ['500', '502', '503', 'hang', 'hang-after'] },
    });
    const calls: CdekCallInfo[] = [];
    env = await createTestApp({
      clock,
      cdek: { fetch: process.env.PLATFORM_FETCH ? undefined : http.fetch, timeoutMs: 250, pollDelaysMs: [0, 0, 0], sleep: async () => {}, onCall: (c) => calls.push(c) },
    });
    const { app, shop } = env;
    const created = await app.dispatch('connections.create', shop, { providerKey: 'cdek', name: 'Основной', baseUrl: fake.url, credentials: FAKE_TEST_ACCOUNT });
    expect(created.ok).toBe(true);

    for (let i = 1; i <= ORDERS; i++) {
      await app.services.orders.create(shop, orderCreateSchema.parse(cdekOrder(`F-${String(i).padStart(4, '0')}`)));
    }

    const started = performance.now();
    const { attempts, passes } = await drainOutbox(app, clock, 200);
    const seconds = (performance.now() - started) / 1000;

    // Nothing stuck, nothing lost.
    expect(await app.outbox.state()).toEqual({ pending: 0, waitingForConnection: false });
    const orders = await app.db.selectFrom('orders').select(['client_number', 'status_key', 'provider_number', 'additional_provider_number']).execute();
    expect(orders).toHaveLength(ORDERS);
    expect(orders.filter((o) => o.status_key !== 'uploaded')).toEqual([]);

    // Exactly once, counted at CDEK; each order carries the numbers CDEK gave it.
    const counts = fake.registrationCounts();
    expect(counts.size).toBe(ORDERS);
    expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
    expect(fake.stats.duplicateRefusals).toBe(0);
    for (const o of orders) {
      const atCdek = fake.order(o.client_number)!;
      expect([o.provider_number, o.additional_provider_number]).toEqual([atCdek.cdekNumber, atCdek.uuid]);
    }

    // The faults really happened, at about the rate asked.
    const faults = Object.values(fake.stats.faults).reduce((a, b) => a + b, 0);
    expect(faults / fake.stats.requests).toBeGreaterThan(0.25);
    expect(faults / fake.stats.requests).toBeLessThan(0.35);
    expect(fake.stats.faults['hang-after']).toBeGreaterThan(0);

    const timeouts = calls.filter((c) => c.failure === 'timeout').length;
    console.log(
      `cdek faults: ${ORDERS} orders, ${attempts} outbox attempts (${attempts - ORDERS} retries) in ${passes} passes; ` +
        `${fake.stats.requests} calls at the fake, ${faults} faulted (${JSON.stringify(fake.stats.faults)}), ${timeouts} client timeouts; ` +
        `creates ${fake.stats.byRoute['POST /v2/orders'] ?? 0}, lookups ${fake.stats.byRoute['GET /v2/orders'] ?? 0}, ` +
        `polls ${fake.stats.byRoute['GET /v2/orders/{uuid}'] ?? 0}, tokens ${fake.stats.tokensIssued}; ${seconds.toFixed(1)} s`,
    );
  });
});

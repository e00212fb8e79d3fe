import { seedOrders } from '../../../bench/lib/seed-orders';
import { createTestApp } from '../../../test/helpers/test-app';

const hour = 3_600_000;

/**
 * 10,000 active orders refreshed in one go: every order is asked about and recorded once, in batches,
 * and the event loop keeps turning meanwhile. The measured times are printed, not asserted: they
 * depend on the machine (the performance issue's benchmarks track them).
 */
describe('status tracking of 10,000 active orders', () => {
  let env: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    env = await createTestApp();
    seedOrders(env.app.sqlite, { companyId: env.shop.companyId, count: 10_000, now: env.clock.now(), seed: 7, spanMs: hour, statuses: 'uploaded' });
  });
  afterAll(() => env.close());

  it('records every new status once, in batches, while the event loop keeps turning', async () => {
    env.clock.advance(30 * hour); // every parcel has been accepted (5 h) and is on its way (18 h)
    let longest = 0;
    let last = performance.now();
    const probe = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 1);
    const started = performance.now();
    const result = await env.app.services.statusRefresh.refresh();
    const took = performance.now() - started;
    clearInterval(probe);
    console.info(`status refresh of 10,000 orders: ${took.toFixed(0)} ms, longest event-loop stall ${longest.toFixed(0)} ms`);

    expect(result).toEqual({ checked: 10_000, changed: 10_000, statuses: 20_000, failed: 0 });
    const counts = await env.app.db
      .selectFrom('orders')
      .select(['status_key', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('status_key')
      .execute();
    expect(counts).toEqual([{ status_key: 'onWay', n: 10_000 }]);
    expect(await env.app.services.statusRefresh.refresh()).toEqual({ checked: 10_000, changed: 0, statuses: 0, failed: 0 });
  }, 120_000);
});

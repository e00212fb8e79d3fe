import { attentionReasonOf } from '../../../shared/attention';
import { orderCreateSchema, type OrderCreateInput } from '../../../shared/schemas/order';
import type { OrderListFilter } from '../../../shared/schemas/orders-list';
import { sandboxPayload } from '../../../test/helpers/sandbox-orders';
import { createTestApp } from '../../../test/helpers/test-app';
import { clientOf, ownerOf } from '../auth/caller';
import { onTheWayStatusKeys } from './today';

const hour = 3_600_000;
const day = 24 * hour;
const at = (y: number, m: number, d: number, h = 9) => new Date(y, m - 1, d, h).getTime();
const dateOf = (ms: number) => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

const groupBy = <T>(items: T[], key: (item: T) => string) => {
  const groups: Record<string, T[]> = {};
  for (const item of items) (groups[key(item)] ??= []).push(item);
  return groups;
};

describe('the "Today" dashboard', () => {
  let env: Awaited<ReturnType<typeof createTestApp>>;
  beforeEach(async () => {
    env = await createTestApp();
  });
  afterEach(() => env.close());

  const services = ['sandbox-express', 'sandbox-post', 'sandbox-lockers'] as const;
  let seq = 0;
  const create = async (service: (typeof services)[number], patch: (o: OrderCreateInput) => void = () => {}) => {
    const payload = await sandboxPayload(env.app.db, service, `D-${++seq}`, patch);
    return (await env.app.services.orders.create(env.shop, orderCreateSchema.parse(payload))).orderId;
  };
  const list = async (filter: OrderListFilter) => (await env.app.services.orders.list(env.shop, { ...filter, limit: 1, offset: 0 })).total;

  /**
   * A shop's month: old orders that have been delivered or come back, this week's on their way, today's
   * registered (one refused, one deleted), some with cash on delivery and one with a delivery day.
   */
  async function shopMonth() {
    env.clock.set(at(2026, 1, 20)); // more than 30 days before "today": outside the delivery-times window
    for (const s of services) await create(s);
    await env.app.outbox.drain();
    env.clock.set(at(2026, 2, 12));
    for (let i = 0; i < 4; i++) for (const s of services) await create(s);
    await env.app.outbox.drain();
    env.clock.set(at(2026, 3, 2)); // Monday of "today's" week
    for (const s of services) await create(s);
    await create('sandbox-express', (o) => (o.order.deliveryDate = '2026-03-06'));
    await env.app.outbox.drain();
    env.clock.set(at(2026, 3, 4)); // Wednesday: today
    await create('sandbox-express');
    await create('sandbox-post');
    await create('sandbox-express', (o) => (o.recipient.city = 'Владивосток')); // the service refuses the door there
    const deleted = await create('sandbox-lockers');
    await env.app.services.orders.remove(env.shop, deleted);
    await env.app.outbox.drain();
    env.clock.set(at(2026, 3, 4, 12)); // today's orders are registered, not yet taken by the service (5 hours)
    await env.app.services.statusRefresh.refresh({ companyId: env.shop.companyId });
  }

  /** The figures worked out plainly from every row of the orders table. */
  async function expectedFromDatabase() {
    const rows = await env.app.db.selectFrom('orders').selectAll().where('company_id', '=', env.shop.companyId).execute();
    const live = rows.filter((r) => r.state !== 'deleted');
    const countBy = <T>(items: T[], key: (item: T) => string) => {
      const counts: Record<string, number> = {};
      for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
      return counts;
    };
    const today = dateOf(env.clock.now());
    const createdToday = live.filter((r) => dateOf(r.created_at) === today);
    const createdWeek = live.filter((r) => dateOf(r.created_at) >= '2026-03-02' && dateOf(r.created_at) <= today);
    const attention = live.filter(
      (r) => r.state === 'active' && attentionReasonOf({ statusKey: r.status_key, providerNumber: r.provider_number }) && r.attention_seen_at !== r.status_changed_at,
    );
    const onTheWay = live.filter((r) => r.cod_kopecks > 0 && (onTheWayStatusKeys as readonly string[]).includes(r.status_key));
    const delivered = live.filter((r) => r.status_key === 'delivered' && dateOf(r.created_at) >= '2026-02-03');
    return {
      today: { byStatus: countBy(createdToday, (r) => r.status_key), byService: countBy(createdToday, (r) => r.provider_key) },
      week: { byStatus: countBy(createdWeek, (r) => r.status_key), byService: countBy(createdWeek, (r) => r.provider_key) },
      attention: countBy(attention, (r) => attentionReasonOf({ statusKey: r.status_key, providerNumber: r.provider_number })!),
      awaitingHandover: countBy(
        live.filter((r) => r.state === 'active' && r.status_key === 'uploaded' && r.provider_number && r.handover_id === null),
        (r) => r.provider_key,
      ),
      codKopecks: Object.fromEntries(Object.entries(groupBy(onTheWay, (r) => r.provider_key)).map(([k, v]) => [k, v!.reduce((s, r) => s + r.cod_kopecks, 0)])),
      deliveredDays: Object.fromEntries(
        Object.entries(groupBy(delivered, (r) => r.provider_key)).map(([k, v]) => [
          k,
          { delivered: v!.length, average: Math.round((v!.reduce((s, r) => s + r.status_changed_at - r.created_at, 0) / v!.length / day) * 10) / 10 },
        ]),
      ),
    };
  }

  const asCounts = <K extends string>(items: { orders: number }[], key: (item: never) => K) =>
    Object.fromEntries((items as never[]).filter((i) => (i as { orders: number }).orders > 0).map((i) => [key(i), (i as { orders: number }).orders]));

  it('counts what the orders table holds, and each figure opens a list of exactly those orders', async () => {
    await shopMonth();
    const figures = await env.app.services.dashboard.today(env.shop);
    const expected = await expectedFromDatabase();

    expect(figures.today).toBe('2026-03-04');
    expect(figures.created.week.dateFrom).toBe('2026-03-02');
    for (const [figure, want] of [
      [figures.created.today, expected.today],
      [figures.created.week, expected.week],
    ] as const) {
      expect(asCounts(figure.byStatus, (i: { statusKey: string }) => i.statusKey)).toEqual(want.byStatus);
      expect(asCounts(figure.byService, (i: { providerKey: string }) => i.providerKey)).toEqual(want.byService);
      expect(figure.total).toBe(Object.values(want.byStatus).reduce((a, b) => a + b, 0));
      for (const s of figure.byStatus) expect(await list({ dateFrom: figure.dateFrom, dateTo: figure.dateTo, statusKeys: [s.statusKey] })).toBe(s.orders);
      for (const s of figure.byService) expect(await list({ dateFrom: figure.dateFrom, dateTo: figure.dateTo, providerKey: s.providerKey })).toBe(s.orders);
    }
    // Today: three live orders (the deleted one is not counted), one of them refused.
    expect(figures.created.today.total).toBe(3);
    expect(figures.created.today.byStatus).toContainEqual({ statusKey: 'uploadingError', orders: 1 });

    expect(asCounts(figures.attention.byReason, (i: { reason: string }) => i.reason)).toEqual(expected.attention);
    expect(figures.attention.byReason.find((r) => r.reason === 'registrationFailed')!.orders).toBe(1);
    expect(figures.attention.total).toBeGreaterThan(1); // old orders came back too
    expect(await list({ attention: true })).toBe(figures.attention.total);

    expect(asCounts(figures.awaitingHandover.byService, (i: { providerKey: string }) => i.providerKey)).toEqual(expected.awaitingHandover);
    expect(figures.awaitingHandover.total).toBe(2);

    expect(Object.fromEntries(figures.codExpected.byService.map((s) => [s.providerKey, Math.round(s.amount * 100)]))).toEqual(expected.codKopecks);
    for (const s of figures.codExpected.byService) {
      expect(await list({ providerKey: s.providerKey, cod: true, statusKeys: figures.codExpected.statusKeys })).toBe(s.orders);
      expect(s.byDay.reduce((n, d) => n + d.orders, 0)).toBe(s.orders);
    }
    expect(figures.codExpected.byService.find((s) => s.providerKey === 'sandbox-express')!.byDay).toContainEqual({ date: '2026-03-06', orders: 1, amount: 2990.5 });

    expect(figures.deliveryTimes.dateFrom).toBe('2026-02-03');
    expect(Object.fromEntries(figures.deliveryTimes.byService.map((s) => [s.providerKey, { delivered: s.delivered, average: s.averageDays }]))).toEqual(expected.deliveredDays);
    expect(figures.deliveryTimes.byService.length).toBeGreaterThan(0);
    for (const s of figures.deliveryTimes.byService) {
      expect(await list({ providerKey: s.providerKey, statusKeys: ['delivered'], dateFrom: figures.deliveryTimes.dateFrom, dateTo: figures.today })).toBe(s.delivered);
      expect(s.fastestDays).toBeLessThanOrEqual(s.averageDays);
      expect(s.slowestDays).toBeGreaterThanOrEqual(s.averageDays);
    }
  });

  it('an order marked seen leaves the attention list until its status changes again; another company cannot mark it', async () => {
    env.clock.set(at(2026, 3, 4));
    const refused = await create('sandbox-express', (o) => (o.recipient.city = 'Владивосток'));
    await env.app.outbox.drain();
    expect((await env.app.services.dashboard.today(env.shop)).attention.total).toBe(1);

    const other = await env.app.services.companies.ensureWithToken('other-shop-token', 'Other');
    expect(await env.app.dispatch('orders.markSeen', ownerOf(other.companyId), { orderIds: [refused] })).toMatchObject({ ok: true, value: { seen: 0 } });
    expect(await list({ attention: true })).toBe(1);

    expect(await env.app.dispatch('orders.markSeen', ownerOf(env.shop.companyId), { orderIds: [refused] })).toMatchObject({ ok: true, value: { seen: 1 } });
    expect(await list({ attention: true })).toBe(0);
    expect((await env.app.services.dashboard.today(env.shop)).attention.total).toBe(0);

    // Sent again and refused again: a new status, so it needs attention again.
    env.clock.advance(hour);
    await env.app.services.orders.resend(env.shop, refused);
    await env.app.outbox.drain();
    expect(await list({ attention: true })).toBe(1);
  });

  it('is refused to an API client and answers a packer', async () => {
    const client = await env.app.dispatch('dashboard.today', clientOf(env.shop.companyId), {});
    expect(client).toMatchObject({ ok: false });
    const packer = await env.app.dispatch('dashboard.today', { ...ownerOf(env.shop.companyId), role: 'packer' as const, userId: 1 }, {});
    expect(packer).toMatchObject({ ok: true });
  });
});

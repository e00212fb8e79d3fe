import type { TodayDashboard } from '../../../shared/contract/dashboard';
import { toRubles } from '../../../shared/money';
import type { OrderListFilter } from '../../../shared/schemas/orders-list';
import type { StatusKey } from '../../../shared/status-keys';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import type { ProviderRegistry } from '../providers/registry';
import type { OrdersStore } from '../store/orders/orders-store';
import { attentionSummary } from './attention';

const day = 86_400_000;

/** Registered and on the way, not yet delivered or returned: the cash these carry is still to come. */
export const onTheWayStatusKeys = ['uploaded', 'onPointIn', 'onWay', 'onPointOut', 'readyForRecipient', 'delivering'] as const satisfies readonly StatusKey[];

/** How far ahead the expected cash is split by day; later days (and undated orders) share one bar. */
const codDaysAhead = 7;
/** The window of achieved delivery times. */
const deliveryWindowDays = 30;

/** A calendar day (YYYY-MM-DD) on this machine's clock (the shop's), `plusDays` from `ms`'s. */
function calendarDay(ms: number, plusDays = 0): string {
  const d = new Date(ms);
  const shifted = new Date(d.getFullYear(), d.getMonth(), d.getDate() + plusDays);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${shifted.getFullYear()}-${pad(shifted.getMonth() + 1)}-${pad(shifted.getDate())}`;
}

/** Monday of the week holding `ms` (weeks start on Monday in Russia). */
const mondayOf = (ms: number) => calendarDay(ms, -((new Date(ms).getDay() + 6) % 7));

const oneDecimal = (days: number) => Math.round(days * 10) / 10;

/**
 * The "Today" screen's figures. Each one counts the orders list's own filter (filteredOrders), so a
 * click on a figure opens a list of exactly the orders it counted.
 */
export function createDashboard(deps: { store: OrdersStore; clock: Clock; providers: ProviderRegistry }) {
  const serviceName = (key: string) => deps.providers.get(key)?.info.name ?? key;
  const byService = (counts: Map<string, number>) =>
    [...counts].map(([providerKey, orders]) => ({ providerKey, serviceName: serviceName(providerKey), orders })).sort((a, b) => b.orders - a.orders);

  async function created(ctx: CallContext, dateFrom: string, dateTo: string) {
    const filter: OrderListFilter = { dateFrom, dateTo };
    const [statuses, services] = await Promise.all([deps.store.countOrders(ctx.companyId, filter, 'status'), deps.store.countOrders(ctx.companyId, filter, 'service')]);
    return {
      dateFrom,
      dateTo,
      total: [...statuses.values()].reduce((sum, n) => sum + n, 0),
      byStatus: [...statuses].map(([statusKey, orders]) => ({ statusKey: statusKey as StatusKey, orders })).sort((a, b) => b.orders - a.orders),
      byService: byService(services),
    };
  }

  async function codExpected(ctx: CallContext, today: string) {
    const lastDay = calendarDay(new Date(`${today}T12:00:00`).getTime(), codDaysAhead - 1);
    const rows = await deps.store.codByDeliveryDate(ctx.companyId, { cod: true, statusKeys: [...onTheWayStatusKeys] });
    const services = new Map<string, { orders: number; kopecks: number; days: Map<string | null, { orders: number; kopecks: number }> }>();
    for (const row of rows) {
      const service = services.get(row.providerKey) ?? { orders: 0, kopecks: 0, days: new Map() };
      services.set(row.providerKey, service);
      const date = row.deliveryDate && row.deliveryDate >= today && row.deliveryDate <= lastDay ? row.deliveryDate : null;
      const bucket = service.days.get(date) ?? { orders: 0, kopecks: 0 };
      service.days.set(date, { orders: bucket.orders + row.orders, kopecks: bucket.kopecks + row.kopecks });
      service.orders += row.orders;
      service.kopecks += row.kopecks;
    }
    const list = [...services].map(([key, s]) => ({
      providerKey: key,
      serviceName: serviceName(key),
      orders: s.orders,
      amount: toRubles(s.kopecks),
      byDay: [...s.days]
        .map(([date, d]) => ({ date, orders: d.orders, amount: toRubles(d.kopecks) }))
        .sort((a, b) => (a.date ?? '9999') .localeCompare(b.date ?? '9999')),
    }));
    list.sort((a, b) => b.amount - a.amount);
    const kopecks = [...services.values()].reduce((sum, s) => sum + s.kopecks, 0);
    return { statusKeys: [...onTheWayStatusKeys], orders: list.reduce((sum, s) => sum + s.orders, 0), amount: toRubles(kopecks), byService: list };
  }

  async function deliveryTimes(ctx: CallContext, today: string, now: number) {
    const dateFrom = calendarDay(now, -(deliveryWindowDays - 1));
    const rows = await deps.store.deliveryTimes(ctx.companyId, { dateFrom, dateTo: today });
    return {
      dateFrom,
      byService: rows
        .map((r) => ({
          providerKey: r.providerKey,
          serviceName: serviceName(r.providerKey),
          delivered: r.delivered,
          averageDays: oneDecimal(r.averageMs / day),
          fastestDays: oneDecimal(r.fastestMs / day),
          slowestDays: oneDecimal(r.slowestMs / day),
        }))
        .sort((a, b) => a.averageDays - b.averageDays),
    };
  }

  return {
    async today(ctx: CallContext): Promise<TodayDashboard> {
      const now = deps.clock.now();
      const today = calendarDay(now);
      const [createdToday, createdWeek, attention, handover, cod, times] = await Promise.all([
        created(ctx, today, today),
        created(ctx, mondayOf(now), today),
        attentionSummary(deps.store, ctx),
        deps.store.awaitingHandoverCounts(ctx.companyId),
        codExpected(ctx, today),
        deliveryTimes(ctx, today, now),
      ]);
      const handoverByService = byService(handover);
      return {
        today,
        created: { today: createdToday, week: createdWeek },
        attention,
        awaitingHandover: { total: handoverByService.reduce((sum, s) => sum + s.orders, 0), byService: handoverByService },
        codExpected: cod,
        deliveryTimes: times,
      };
    },
  };
}

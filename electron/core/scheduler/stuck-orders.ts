import { formatTimestamp } from '../../../shared/time';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import { listedOrderRow } from '../orders/order-service';
import type { OrdersStore } from '../store/orders/orders-store';

const day = 86_400_000;

/** Live, unfinished orders whose status has not moved for `days`, longest waiting first. */
export async function stuckOrders(store: OrdersStore, clock: Clock, ctx: CallContext, query: { days: number; limit: number; offset: number }) {
  const now = clock.now();
  const { orders, total } = await store.stuckOrders(ctx.companyId, { changedBefore: now - query.days * day, limit: query.limit, offset: query.offset });
  return {
    thresholdDays: query.days,
    total,
    rows: orders.map((o) => ({
      ...listedOrderRow(o),
      statusChanged: formatTimestamp(o.statusChangedAt),
      daysWithoutChange: Math.floor((now - o.statusChangedAt) / day),
    })),
  };
}

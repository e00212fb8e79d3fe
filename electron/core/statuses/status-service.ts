import { said } from '../../../shared/messages';
import { ErrorCode } from '../../../shared/errors';
import type {
  AppStatusHistory, HistoryRow, OrderInfo, OrderStatus, OrderStatusResult, PageMeta, StatusesResult, StatusHistory, StatusHistoryList,
} from '../../../shared/schemas/statuses';
import { statusNames, type StatusKey } from '../../../shared/status-keys';
import { formatTimestamp } from '../../../shared/time';
import type { CallContext } from '../companies/company-service';
import { notFound, orderNotFound, validationError } from '../errors';
import type { OrdersStore, Page, StatusRecord, StoredOrder } from '../store/orders/orders-store';
import { isDateOnly, requireMoment } from './moment';
import { historyFilterFields, intervalFilterFields, statusFilter } from './status-filter';

export type { Page };

/** Order ids are positive integers; anything else names no order. */
const orderIdNumber = (raw: string): number | null => (/^\d{1,15}$/.test(raw.trim()) && Number(raw) > 0 ? Number(raw) : null);

/** An order as the status answers name it (`orderInfo`). */
export const orderInfoOf = (o: StoredOrder): OrderInfo => ({
  orderId: String(o.id),
  providerKey: o.providerKey,
  providerNumber: o.providerNumber ?? '',
  returnProviderNumber: o.returnProviderNumber ?? '',
  additionalProviderNumber: o.additionalProviderNumber ?? '',
  barcode: o.barcode ?? '',
  clientNumber: o.clientNumber,
  trackingUrl: o.trackingUrl ?? '',
});

/** A recorded status as the status answers give it. */
export const statusOf = (s: StatusRecord): OrderStatus => ({
  key: s.key,
  name: statusNames[s.key as StatusKey]?.ru ?? s.key,
  description: s.description ?? '',
  created: formatTimestamp(s.createdAt),
  providerCode: s.providerCode ?? '',
  providerName: s.providerName ?? '',
  providerDescription: s.providerDescription ?? '',
  createdProvider: s.createdProvider === null ? '' : formatTimestamp(s.createdProvider),
  errorCode: s.errorCode ?? '',
});

const noStatuses = (o: StoredOrder) => notFound(said('notFound.noStatuses', { orderId: o.id }), ErrorCode.noStatuses);
const clientNumberNotFound = (clientNumber: string) => notFound(said('notFound.clientNumber', { number: clientNumber }), ErrorCode.orderNotFound);

/**
 * A date of the company-wide lists as a range start: a calendar date counts from that day's local
 * midnight inclusive, a timestamp counts strictly after it (so a client can poll with the last `created` it saw).
 */
const sinceRange = (raw: string, field: string) => {
  const ms = requireMoment(raw, field);
  return isDateOnly(raw) ? { from: ms } : { after: ms };
};

/** Reads the statuses of the company's orders (the orders store keeps them; tracking and the outbox record them). */
export function createStatusService({ store }: { store: OrdersStore }) {
  async function orderById(ctx: CallContext, rawId: string): Promise<StoredOrder> {
    const id = orderIdNumber(rawId);
    const order = id === null ? undefined : await store.findOrder(ctx.companyId, id);
    if (!order) throw orderNotFound(rawId);
    return order;
  }

  async function orderByClientNumber(ctx: CallContext, clientNumber: string | null): Promise<StoredOrder> {
    if (clientNumber === null || clientNumber.trim() === '') throw validationError([{ field: 'clientNumber', message: 'is required' }]);
    const order = await store.findOrderByClientNumber(ctx.companyId, clientNumber.trim());
    if (!order) throw clientNumberNotFound(clientNumber.trim());
    return order;
  }

  async function currentOf(order: StoredOrder): Promise<OrderStatusResult> {
    const status = (await store.latestStatuses(order.companyId, [order.id])).get(order.id);
    if (!status) throw noStatuses(order);
    return { orderInfo: orderInfoOf(order), status: statusOf(status) };
  }

  async function historyOfOrders(order: StoredOrder, others: StoredOrder[], page: Page, filter?: string): Promise<StatusHistory> {
    const conditions = statusFilter(filter, historyFilterFields);
    const merged = others.length > 0;
    const ids = [...new Set([order.id, ...others.map((o) => o.id)])];
    const { statuses, total } = await store.statusHistory(order.companyId, ids, conditions, page);
    return {
      orderInfo: orderInfoOf(order),
      rows: statuses.map((s): HistoryRow => (merged ? { ...statusOf(s), orderId: String(s.orderId) } : statusOf(s))),
      meta: { total, offset: page.offset, limit: page.limit },
    };
  }

  /** The window's timeline: the interface's rows, each of our descriptions also by key (never sent to integrators). */
  async function appHistoryOf(order: StoredOrder, page: Page): Promise<AppStatusHistory> {
    const { statuses, total } = await store.statusHistory(order.companyId, [order.id], [], page);
    return {
      orderInfo: orderInfoOf(order),
      rows: statuses.map((s) => ({ ...statusOf(s), descriptionMessage: s.descriptionMessage })),
      meta: { total, offset: page.offset, limit: page.limit },
    };
  }

  const listOf = (result: Awaited<ReturnType<OrdersStore['statusHistoryList']>>, page: Page): StatusHistoryList => ({
    rows: result.rows.map(({ order, statuses }) => ({ orderInfo: orderInfoOf(order), statuses: statuses.map(statusOf) })),
    meta: { total: result.total, offset: page.offset, limit: page.limit } satisfies PageMeta,
  });

  return {
    /** GET /orders/{orderId}/status: the order's current status. */
    async current(ctx: CallContext, orderId: string): Promise<OrderStatusResult> {
      return currentOf(await orderById(ctx, orderId));
    },

    /** GET /orders/status?clientNumber=: the live order with that number, else the newest canceled one. */
    async currentByClientNumber(ctx: CallContext, clientNumber: string | null): Promise<OrderStatusResult> {
      return currentOf(await orderByClientNumber(ctx, clientNumber));
    },

    /** POST /orders/statuses: each id answered in the order asked, unknown ones listed as failed. */
    async many(ctx: CallContext, orderIds: string[]): Promise<StatusesResult> {
      const asked = [...new Set(orderIds.map((id) => id.trim()))];
      const numbers = asked.map(orderIdNumber).filter((n): n is number => n !== null);
      const orders = await store.findOrders(ctx.companyId, numbers);
      const latest = await store.latestStatuses(ctx.companyId, [...orders.keys()]);
      const result: StatusesResult = { succeedOrders: [], failedOrders: [] };
      for (const id of asked) {
        const n = orderIdNumber(id);
        const order = n === null ? undefined : orders.get(n);
        const status = order && latest.get(order.id);
        if (!order) result.failedOrders.push({ orderId: id, message: `Order ${id} was not found` });
        else if (!status) result.failedOrders.push({ orderId: id, message: `Order ${id} has no statuses yet` });
        else result.succeedOrders.push({ orderInfo: orderInfoOf(order), status: statusOf(status) });
      }
      return result;
    },

    /** GET /orders/statuses/date/{date}: orders whose current status was set after the date, oldest change first. */
    async changedSince(ctx: CallContext, date: string): Promise<OrderStatusResult[]> {
      const range = sinceRange(date, 'date');
      const since = range.after ?? range.from! - 1;
      return (await store.changedSince(ctx.companyId, since)).map(({ order, status }) => ({ orderInfo: orderInfoOf(order), status: statusOf(status) }));
    },

    /**
     * GET /orders/{orderId}/statusHistory: newest first. With `orderIds` the rows of those orders (and of the
     * path's order) are merged into one list, each row naming its orderId; orderInfo stays the path's order.
     */
    async history(ctx: CallContext, orderId: string, page: Page, options: { orderIds?: string[]; filter?: string } = {}): Promise<StatusHistory> {
      const order = await orderById(ctx, orderId);
      const asked = options.orderIds ?? [];
      const found = await store.findOrders(ctx.companyId, asked.map(orderIdNumber).filter((n): n is number => n !== null));
      const missing = asked.find((id) => !found.has(orderIdNumber(id) ?? 0));
      if (missing !== undefined) throw orderNotFound(missing);
      return historyOfOrders(order, [...found.values()], page, options.filter);
    },

    /** statuses.history (the order's screen): the order's statuses with their messages by key. */
    async appHistory(ctx: CallContext, orderId: string, page: Page): Promise<AppStatusHistory> {
      return appHistoryOf(await orderById(ctx, orderId), page);
    },

    /** GET /orders/status/history?clientNumber=: the same answer as statusHistory. */
    async historyByClientNumber(ctx: CallContext, clientNumber: string | null, page: Page, filter?: string): Promise<StatusHistory> {
      return historyOfOrders(await orderByClientNumber(ctx, clientNumber), [], page, filter);
    },

    /** GET /orders/statuses/history/date/{date}: every status change since the date, grouped by order. */
    async historySince(ctx: CallContext, date: string, page: Page): Promise<StatusHistoryList> {
      return listOf(await store.statusHistoryList(ctx.companyId, sinceRange(date, 'date'), [], page), page);
    },

    /**
     * GET /orders/statuses/interval: status changes with from ≤ created ≤ to (a calendar-date `to` covers
     * that whole day; no `to` means up to now and beyond), narrowed by `filter`, grouped by order.
     */
    async historyInterval(ctx: CallContext, query: { from: string | null; to: string | null; filter?: string }, page: Page): Promise<StatusHistoryList> {
      const from = requireMoment(query.from, 'from');
      let before: number | undefined;
      if (query.to !== null && query.to.trim() !== '') {
        const to = requireMoment(query.to, 'to');
        before = isDateOnly(query.to) ? nextLocalMidnight(to) : to + 1;
        if (before <= from) throw validationError([{ field: 'to', message: 'must not be before from' }]);
      }
      const conditions = statusFilter(query.filter, intervalFilterFields);
      return listOf(await store.statusHistoryList(ctx.companyId, { from, before }, conditions, page), page);
    },
  };
}

/** Local midnight after the local midnight `ms` (days are not always 24 hours long). */
function nextLocalMidnight(ms: number): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime();
}

export type StatusService = ReturnType<typeof createStatusService>;

import type BetterSqlite3 from 'better-sqlite3';
import { said } from '../../../shared/messages';
import { ErrorCode } from '../../../shared/errors';
import type {
  AppStatusHistory, HistoryRow, OrderInfo, OrderStatus, OrderStatusResult, PageMeta, StatusesResult, StatusHistory, StatusHistoryList,
} from '../../../shared/schemas/statuses';
import { storedMessage } from '../../../shared/messages';
import { statusNames, type StatusKey } from '../../../shared/status-keys';
import { formatTimestamp } from '../../../shared/time';
import type { CallContext } from '../companies/company-service';
import { notFound, orderNotFound, validationError } from '../errors';
import { registerFold } from '../store/filter-sql';
import { findOrder } from '../orders/order-repository';
import type { Db } from '../store/database';
import { isDateOnly, requireMoment } from './moment';
import { historyFilterFields, intervalFilterFields, statusFilterSql } from './status-filter';
import {
  changedSince, findOrderByClientNumber, findOrders, historyList, historyOf, latestStatuses, type OrderRow, type StatusRow,
} from './status-repository';

export interface Page {
  offset: number;
  limit: number;
}

/** Order ids are positive integers; anything else names no order. */
const orderIdNumber = (raw: string): number | null => (/^\d{1,15}$/.test(raw.trim()) && Number(raw) > 0 ? Number(raw) : null);

/** An order as the status answers name it (`orderInfo`). */
export const orderInfoOf = (o: OrderRow): OrderInfo => ({
  orderId: String(o.id),
  providerKey: o.provider_key,
  providerNumber: o.provider_number ?? '',
  returnProviderNumber: o.return_provider_number ?? '',
  additionalProviderNumber: o.additional_provider_number ?? '',
  barcode: o.barcode ?? '',
  clientNumber: o.client_number,
  trackingUrl: o.tracking_url ?? '',
});

/** A recorded status as the status answers give it. */
export const statusOf = (s: StatusRow): OrderStatus => ({
  key: s.key,
  name: statusNames[s.key as StatusKey]?.ru ?? s.key,
  description: s.description ?? '',
  created: formatTimestamp(s.created_at),
  providerCode: s.provider_code ?? '',
  providerName: s.provider_name ?? '',
  providerDescription: s.provider_description ?? '',
  createdProvider: s.created_provider === null ? '' : formatTimestamp(s.created_provider),
  errorCode: s.error_code ?? '',
});

const noStatuses = (o: OrderRow) => notFound(said('notFound.noStatuses', { orderId: o.id }), ErrorCode.noStatuses);
const clientNumberNotFound = (clientNumber: string) => notFound(said('notFound.clientNumber', { number: clientNumber }), ErrorCode.orderNotFound);

/**
 * A date of the company-wide lists as a range start: a calendar date counts from that day's local
 * midnight inclusive, a timestamp counts strictly after it (so a client can poll with the last `created` it saw).
 */
const sinceRange = (raw: string, field: string) => {
  const ms = requireMoment(raw, field);
  return isDateOnly(raw) ? { from: ms } : { after: ms };
};

/** Reads the statuses of the company's orders (the tracking service writes them into order_statuses). */
export function createStatusService({ db, sqlite }: { db: Db; sqlite: BetterSqlite3.Database }) {
  registerFold(sqlite); // the text conditions of `filter` compare through it, as the reference lists do

  async function orderById(ctx: CallContext, rawId: string): Promise<OrderRow> {
    const id = orderIdNumber(rawId);
    const order = id === null ? undefined : await findOrder(db, ctx.companyId, id);
    if (!order) throw orderNotFound(rawId);
    return order;
  }

  async function orderByClientNumber(ctx: CallContext, clientNumber: string | null): Promise<OrderRow> {
    if (clientNumber === null || clientNumber.trim() === '') throw validationError([{ field: 'clientNumber', message: 'is required' }]);
    const order = await findOrderByClientNumber(db, ctx.companyId, clientNumber.trim());
    if (!order) throw clientNumberNotFound(clientNumber.trim());
    return order;
  }

  async function currentOf(order: OrderRow): Promise<OrderStatusResult> {
    const status = (await latestStatuses(db, [order.id])).get(order.id);
    if (!status) throw noStatuses(order);
    return { orderInfo: orderInfoOf(order), status: statusOf(status) };
  }

  async function historyOfOrders(order: OrderRow, others: OrderRow[], page: Page, filter?: string): Promise<StatusHistory> {
    const conditions = statusFilterSql(filter, historyFilterFields);
    const merged = others.length > 0;
    const ids = [...new Set([order.id, ...others.map((o) => o.id)])];
    const { rows, total } = await historyOf(db, ids, page, conditions);
    return {
      orderInfo: orderInfoOf(order),
      rows: rows.map((s): HistoryRow => (merged ? { ...statusOf(s), orderId: String(s.order_id) } : statusOf(s))),
      meta: { total, offset: page.offset, limit: page.limit },
    };
  }

  /** The window's timeline: the interface's rows, each of our descriptions also by key (never sent to integrators). */
  async function appHistoryOf(order: OrderRow, page: Page): Promise<AppStatusHistory> {
    const { rows, total } = await historyOf(db, [order.id], page, statusFilterSql(undefined, historyFilterFields));
    return {
      orderInfo: orderInfoOf(order),
      rows: rows.map((s) => ({ ...statusOf(s), descriptionMessage: storedMessage(s.description_message) })),
      meta: { total, offset: page.offset, limit: page.limit },
    };
  }

  const listOf = (result: Awaited<ReturnType<typeof historyList>>, page: Page): StatusHistoryList => ({
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
      const orders = await findOrders(db, ctx.companyId, numbers);
      const latest = await latestStatuses(db, [...orders.keys()]);
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
      return (await changedSince(db, ctx.companyId, since)).map(({ order, status }) => ({ orderInfo: orderInfoOf(order), status: statusOf(status) }));
    },

    /**
     * GET /orders/{orderId}/statusHistory: newest first. With `orderIds` the rows of those orders (and of the
     * path's order) are merged into one list, each row naming its orderId; orderInfo stays the path's order.
     */
    async history(ctx: CallContext, orderId: string, page: Page, options: { orderIds?: string[]; filter?: string } = {}): Promise<StatusHistory> {
      const order = await orderById(ctx, orderId);
      const asked = options.orderIds ?? [];
      const found = await findOrders(db, ctx.companyId, asked.map(orderIdNumber).filter((n): n is number => n !== null));
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
      return listOf(await historyList(db, ctx.companyId, sinceRange(date, 'date'), [], page), page);
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
      const conditions = statusFilterSql(query.filter, intervalFilterFields);
      return listOf(await historyList(db, ctx.companyId, { from, before }, conditions, page), page);
    },
  };
}

/** Local midnight after the local midnight `ms` (days are not always 24 hours long). */
function nextLocalMidnight(ms: number): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime();
}

export type StatusService = ReturnType<typeof createStatusService>;

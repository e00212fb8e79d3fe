import { ErrorCode } from '../../../shared/errors';
import { said } from '../../../shared/messages';
import type { BulkResult, bulkActions } from '../../../shared/contract/bulk';
import { orderCreateSchema } from '../../../shared/schemas/order';
import type { CallContext } from '../companies/company-service';
import { AppError, badRequest, internalError, orderNotFound } from '../errors';
import type { Logger } from '../logger';
import type { OrdersStore, StoredOrder } from '../store/orders/orders-store';
import type { OrderService } from './order-service';

type BulkAction = (typeof bulkActions)[number];

export interface BulkDeps {
  /** The orders as kept (which of the asked exist, what a re-send's service said). */
  store: OrdersStore;
  orders: OrderService;
  /** Refreshes the statuses of these orders of the company (the scheduler's run: progress and notices). */
  refresh: (companyId: number, orderIds: number[]) => Promise<unknown>;
  /** Runs the queued transfers now (outbox.drain), so a re-send reports what the service said. */
  drain?: () => Promise<unknown>;
  log: Logger;
}

/** How long "send again" waits for the services' answers before it reports the orders as on their way. */
export const resendWaitMs = 10_000;

const idOf = (raw: string) => (/^[1-9]\d{0,14}$/.test(raw.trim()) ? Number(raw.trim()) : null);

/**
 * Many orders at once through the order service, one by one: each order gets its own result and one
 * refusal does not stop the rest. `submit` sends a failed order (uploadingError) again with its own data.
 */
export function createBulkActions({ store, orders, refresh, drain, log }: BulkDeps) {
  /**
   * "Send again" is only done when the service has taken the order: an order it refused again is a
   * failure with the service's words, not a success because it was queued.
   */
  async function refusedAgain(ctx: CallContext, results: BulkResult['results']): Promise<BulkResult['results']> {
    const sent = results.filter((r) => r.ok).map((r) => Number(r.orderId));
    if (!drain || sent.length === 0) return results;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([drain(), new Promise<void>((resolve) => (timer = setTimeout(resolve, resendWaitMs)))]);
    clearTimeout(timer);
    const refused = new Map<number, Pick<StoredOrder, 'statusDescription' | 'statusDescriptionMessage'>>();
    for (const order of (await store.findOrders(ctx.companyId, sent)).values()) if (order.statusKey === 'uploadingError') refused.set(order.id, order);
    return results.map((r) => {
      const order = r.ok ? refused.get(Number(r.orderId)) : undefined;
      if (!order) return r;
      const words = order.statusDescription || 'refused by the delivery service';
      // the refusal's key too, when the order keeps one: the window says the service's reason in its language
      const keyed = order.statusDescriptionMessage ? { key: order.statusDescriptionMessage.key, params: order.statusDescriptionMessage.params } : {};
      return { orderId: r.orderId, ok: false, error: { code: ErrorCode.general, message: 'The delivery service refused the order again', description: words, ...keyed, errors: [{ field: 'order', message: words, ...keyed }] } };
    });
  }

  async function submit(ctx: CallContext, orderId: string) {
    const view = await orders.view(ctx, orderId);
    if (view.order.statusKey === 'uploading') return; // on its way already
    if (view.order.statusKey !== 'uploadingError') throw badRequest(said('order.alreadyRegistered', { orderId, status: view.order.statusKey }));
    const stored = await store.findOrder(ctx.companyId, Number(orderId));
    if (!stored) throw orderNotFound(orderId); // deleted meanwhile
    await orders.update(ctx, orderId, orderCreateSchema.parse(stored.payload));
  }

  return {
    async run(ctx: CallContext, action: BulkAction, orderIds: string[]): Promise<BulkResult> {
      const ids = [...new Set(orderIds.map((id) => id.trim()))];
      const results: BulkResult['results'] = [];
      if (action === 'refresh') {
        // Orders of the company that exist; the rest are named as not found.
        const numeric = ids.map(idOf).filter((n): n is number => n !== null);
        const found = new Set((await store.findOrders(ctx.companyId, numeric)).keys());
        if (found.size) await refresh(ctx.companyId, [...found]);
        for (const id of ids) {
          const n = idOf(id);
          results.push(n !== null && found.has(n) ? { orderId: id, ok: true } : { orderId: id, ok: false, error: orderNotFound(id).body });
        }
      } else {
        for (const id of ids) {
          try {
            if (action === 'submit') await submit(ctx, id);
            else if (action === 'cancel') await orders.cancel(ctx, id);
            else await orders.remove(ctx, id);
            results.push({ orderId: id, ok: true });
          } catch (error) {
            // An unexpected failure of one order is logged and reported; the others still get their turn.
            if (!(error instanceof AppError)) log.error(`bulk ${action} of order ${id} failed`, error);
            results.push({ orderId: id, ok: false, error: error instanceof AppError ? error.body : internalError().body });
          }
        }
      }
      const answered = action === 'submit' ? await refusedAgain(ctx, results) : results;
      const ok = answered.filter((r) => r.ok).length;
      return { action, ok, failed: answered.length - ok, results: answered };
    },
  };
}

export type BulkActions = ReturnType<typeof createBulkActions>;

import type { BulkResult, bulkActions } from '../../../shared/contract/bulk';
import { orderCreateSchema } from '../../../shared/schemas/order';
import type { CallContext } from '../companies/company-service';
import { AppError, badRequest, internalError, orderNotFound } from '../errors';
import type { Logger } from '../logger';
import type { Db } from '../store/database';
import type { OrderService } from './order-service';

type BulkAction = (typeof bulkActions)[number];

export interface BulkDeps {
  db: Db;
  orders: OrderService;
  /** Refreshes the statuses of these orders of the company (the scheduler's run: progress and notices). */
  refresh: (companyId: number, orderIds: number[]) => Promise<unknown>;
  log: Logger;
}

const idOf = (raw: string) => (/^[1-9]\d{0,14}$/.test(raw.trim()) ? Number(raw.trim()) : null);

/**
 * Many orders at once through the order service, one by one: each order gets its own result and one
 * refusal does not stop the rest. `submit` sends a failed order (uploadingError) again with its own data.
 */
export function createBulkActions({ db, orders, refresh, log }: BulkDeps) {
  async function submit(ctx: CallContext, orderId: string) {
    const view = await orders.view(ctx, orderId);
    if (view.order.statusKey === 'uploading') return; // on its way already
    if (view.order.statusKey !== 'uploadingError') throw badRequest(`Order ${orderId} is already registered with its delivery service (${view.order.statusKey})`);
    const row = await db.selectFrom('orders').select('payload').where('id', '=', Number(orderId)).where('company_id', '=', ctx.companyId).executeTakeFirstOrThrow();
    await orders.update(ctx, orderId, orderCreateSchema.parse(JSON.parse(row.payload)));
  }

  return {
    async run(ctx: CallContext, action: BulkAction, orderIds: string[]): Promise<BulkResult> {
      const ids = [...new Set(orderIds.map((id) => id.trim()))];
      const results: BulkResult['results'] = [];
      if (action === 'refresh') {
        // Orders of the company that exist; the rest are named as not found.
        const numeric = ids.map(idOf).filter((n): n is number => n !== null);
        const found = new Set<number>();
        for (let i = 0; i < numeric.length; i += 500) {
          const rows = await db
            .selectFrom('orders')
            .select('id')
            .where('company_id', '=', ctx.companyId)
            .where('state', '!=', 'deleted')
            .where('id', 'in', numeric.slice(i, i + 500))
            .execute();
          for (const r of rows) found.add(r.id);
        }
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
      const ok = results.filter((r) => r.ok).length;
      return { action, ok, failed: results.length - ok, results };
    },
  };
}

export type BulkActions = ReturnType<typeof createBulkActions>;

import { ErrorCode } from '../../../shared/errors';
import type { OrderCreate } from '../../../shared/schemas/order';
import type { OrderStatusResult } from '../../../shared/schemas/statuses';
import type { CallContext } from '../companies/company-service';
import { AppError } from '../errors';
import type { OrderService } from './order-service';

/** How long POST /orders/sync waits for the delivery service before it answers without its number. */
export const syncWaitMs = 15_000;

export interface SyncCreateDeps {
  orders: Pick<OrderService, 'create'>;
  /** The order's current status (statuses.current). */
  status: (ctx: CallContext, orderId: string) => Promise<OrderStatusResult>;
  /** Runs the queued transfers now (outbox.drain); concurrent calls share one pass. */
  drain: () => Promise<unknown>;
  waitMs?: number;
}

export interface SyncCreated {
  orderId: string;
  providerNumber: string;
  additionalProviderNumber: string;
  created: string;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * POST /orders/sync: creates the order like POST /orders, then transfers it at once and answers when the
 * delivery service has: with its number, or with the error body of its refusal. The order is kept either
 * way (findable by clientNumber); a service that does not answer within `waitMs` is 504 and the transfer
 * goes on in the background.
 */
export async function createSync(deps: SyncCreateDeps, ctx: CallContext, payload: OrderCreate): Promise<SyncCreated> {
  const { orderId, created } = await deps.orders.create(ctx, payload);
  const deadline = Date.now() + (deps.waitMs ?? syncWaitMs);
  let current = await deps.status(ctx, orderId);
  while (current.status.key === 'uploading' && Date.now() < deadline) {
    // A pass already running may have claimed its jobs before this order's was written: drain again.
    await Promise.race([deps.drain(), pause(Math.max(0, deadline - Date.now()))]);
    current = await deps.status(ctx, orderId);
    if (current.status.key === 'uploading') await pause(Math.min(50, Math.max(0, deadline - Date.now())));
  }
  const { status, orderInfo } = current;
  if (status.key === 'uploading') {
    throw new AppError(504, {
      code: ErrorCode.general,
      message: 'The delivery service did not answer in time',
      description: `Order ${orderId} (clientNumber ${payload.order.clientNumber}) is stored and is still being sent; read it with GET /orders/${orderId}/status`,
    });
  }
  if (status.key === 'uploadingError') {
    throw new AppError(400, {
      code: ErrorCode.general,
      message: 'The delivery service refused the order',
      description: `${status.providerDescription || status.description || status.providerName} (order ${orderId} is stored; PUT /orders/${orderId} to correct it, or DELETE it)`,
      errors: [{ field: 'order', message: status.providerDescription || status.description || 'refused by the delivery service' }],
    });
  }
  return { orderId, providerNumber: orderInfo.providerNumber, additionalProviderNumber: orderInfo.additionalProviderNumber, created };
}

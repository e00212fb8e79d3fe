import { formatTimestamp } from '../../../shared/time';
import type { CallContext } from '../companies/company-service';
import type { OrdersStore } from '../store/orders/orders-store';

/**
 * The outbox as the company's window shows it (outbox.state() counts every company's jobs and says
 * nothing of times): its pending jobs, the next attempt, the last error.
 */
export async function outboxView(store: OrdersStore, ctx: CallContext) {
  const queue = await store.queueView(ctx.companyId);
  return {
    pending: queue.pending,
    waitingForConnection: queue.retrying > 0,
    retrying: queue.retrying,
    nextAttemptAt: queue.nextAttemptAt === null ? null : formatTimestamp(queue.nextAttemptAt),
    lastError: queue.lastError,
    lastErrorMessage: queue.lastErrorMessage,
  };
}

import type { StatusKey } from '../../../shared/status-keys';
import { formatTimestamp } from '../../../shared/time';
import type { CallContext } from '../companies/company-service';
import type { ProviderRegistry } from '../providers/registry';
import type { OrdersStore } from '../store/orders/orders-store';

/** How many of the newest live test orders are asked about: enough for a shop trying the app, bounded for one that never cleans up. */
const asked = 2_000;
const chunk = 500;

export interface NextChange {
  orderId: string;
  clientNumber: string;
  statusKey: StatusKey;
  at: string;
}

/**
 * When the next status change is due at a test service (whose schedule is fixed, so it is known): for one
 * order, or the soonest among the company's live unfinished orders. Tells a new shop why "Refresh
 * statuses" found nothing new yet. null when no test order will change again (or the order is not a test one).
 */
export async function nextTestChange(deps: { store: OrdersStore; providers: ProviderRegistry }, ctx: CallContext, orderId?: string): Promise<{ next: NextChange | null }> {
  const scheduled = deps.providers.all().filter((c) => c.info.test && c.schedule);
  if (scheduled.length === 0) return { next: null };
  const rows = await deps.store.registeredUnfinished(ctx.companyId, {
    providerKeys: scheduled.map((c) => c.info.key),
    orderId: orderId === undefined ? undefined : /^\d{1,15}$/.test(orderId) ? Number(orderId) : -1,
    limit: asked,
  });
  let next: { row: (typeof rows)[number]; key: StatusKey; at: number } | null = null;
  for (const carrier of scheduled) {
    const mine = rows.filter((r) => r.providerKey === carrier.info.key);
    for (let i = 0; i < mine.length; i += chunk) {
      const part = mine.slice(i, i + chunk);
      const planned = await carrier.schedule!(part.map((r) => r.providerNumber!));
      for (const row of part) {
        const step = planned.get(row.providerNumber!);
        if (step && (!next || step.at < next.at)) next = { row, ...step };
      }
    }
  }
  return { next: next && { orderId: String(next.row.id), clientNumber: next.row.clientNumber, statusKey: next.key, at: formatTimestamp(next.at) } };
}

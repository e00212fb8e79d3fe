import type { DispatchGroup, Handover } from '../../../shared/contract/dispatch';
import type { OrderCreate } from '../../../shared/schemas/order';
import { formatTimestamp } from '../../../shared/time';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import { validationError } from '../errors';
import type { EventBus } from '../events';
import type { ProviderRegistry } from '../providers/registry';
import type { OrdersStore, StoredOrder } from '../store/orders/orders-store';

/**
 * Whether an order waits for the courier: registered with its service (status `uploaded`, the service has not reported
 * taking it), live, and not marked handed over; the orders store's awaitingHandover reads the same rule (the orders list
 * flags such orders "не передан").
 */
export const awaitsHandover = (order: { handoverId: number | null; state: string; providerNumber: string | null; statusKey: string }) =>
  order.handoverId === null && order.state === 'active' && order.providerNumber !== null && order.statusKey === 'uploaded';

const placesAndWeight = (order: OrderCreate) => ({ places: order.places.length, weightGrams: order.places.reduce((sum, p) => sum + p.weight, 0) });

const totalOf = (orders: StoredOrder[]) =>
  orders.map((o) => placesAndWeight(o.payload)).reduce((t, p) => ({ places: t.places + p.places, weightGrams: t.weightGrams + p.weightGrams }), { places: 0, weightGrams: 0 });

/** The dispatch screen: what is to be handed over, per delivery service, and the handover itself. */
export function createDispatchService(deps: { store: OrdersStore; clock: Clock; providers: ProviderRegistry; events: EventBus }) {
  return {
    async pending(ctx: CallContext): Promise<{ groups: DispatchGroup[] }> {
      const rows = await deps.store.awaitingHandover(ctx.companyId);
      const groups = new Map<string, DispatchGroup>();
      const now = deps.clock.now();
      for (const row of rows) {
        let group = groups.get(row.providerKey);
        if (!group) {
          group = {
            providerKey: row.providerKey,
            serviceName: deps.providers.get(row.providerKey)?.info.name ?? row.providerKey,
            orders: [],
            totals: { orders: 0, places: 0, weightGrams: 0 },
            nextActNumber: await deps.store.nextHandoverNumber(ctx.companyId, row.providerKey, now),
            formsBatches: !!deps.providers.get(row.providerKey)?.batches,
          };
          groups.set(row.providerKey, group);
        }
        const { places, weightGrams } = placesAndWeight(row.payload);
        group.orders.push({
          orderId: String(row.id),
          clientNumber: row.clientNumber,
          providerNumber: row.providerNumber ?? '',
          recipientName: row.recipientName,
          recipientCity: row.recipientCity,
          places,
          weightGrams,
          created: formatTimestamp(row.createdAt),
        });
        group.totals = { orders: group.totals.orders + 1, places: group.totals.places + places, weightGrams: group.totals.weightGrams + weightGrams };
      }
      return { groups: [...groups.values()] };
    },

    /**
     * One handover of the named orders of one service, all or nothing: an order that is not waiting for
     * this service (another service's, already handed over, not registered, unknown) refuses the whole.
     */
    async handOver(ctx: CallContext, input: { providerKey: string; orderIds: string[] }): Promise<Handover> {
      const ids = input.orderIds.map((raw) => (/^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : NaN));
      const notAnId = input.orderIds.flatMap((_raw, i) => (Number.isSafeInteger(ids[i]) && ids[i] > 0 ? [] : [i]));
      const outcome = notAnId.length
        ? { notWaiting: [] }
        : await deps.store.handOver({ companyId: ctx.companyId, providerKey: input.providerKey, orderIds: [...new Set(ids)], at: deps.clock.now(), measure: totalOf });
      if ('notWaiting' in outcome) {
        const notWaiting = new Set(outcome.notWaiting);
        throw validationError(
          input.orderIds.flatMap((raw, i) =>
            notAnId.includes(i) || notWaiting.has(ids[i]) ? [{ field: `orderIds.${i}`, message: `order ${raw} is not waiting to be handed over to ${input.providerKey}` }] : [],
          ),
        );
      }
      const { number, handedAt, orders, places, weightGrams } = outcome.handover;
      const handover: Handover = { number, handedAt: formatTimestamp(handedAt), providerKey: input.providerKey, orders, places, weightGrams };
      deps.events.publish({ type: 'orders.changed', companyId: ctx.companyId, orderIds: input.orderIds });
      return handover;
    },
  };
}
export type DispatchService = ReturnType<typeof createDispatchService>;

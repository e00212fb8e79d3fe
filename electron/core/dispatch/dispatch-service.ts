import type { DispatchGroup, Handover } from '../../../shared/contract/dispatch';
import type { OrderCreate } from '../../../shared/schemas/order';
import { formatTimestamp } from '../../../shared/time';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import { validationError } from '../errors';
import type { EventBus } from '../events';
import type { Trx } from '../store/orders/queries';
import type { ProviderRegistry } from '../providers/registry';
import type { Db } from '../store/database';
import { nextHandoverNumber } from './handover-numbers';

/**
 * Orders waiting for the courier: registered with their service (status `uploaded`, the service has not
 * reported taking them), live, and not marked handed over. Both the screen and the handover use this.
 */
export const awaitingHandover = (db: Trx, companyId: number) =>
  db
    .selectFrom('orders')
    .where('company_id', '=', companyId)
    .where('handover_id', 'is', null)
    .where('state', '=', 'active')
    .where('provider_number', 'is not', null)
    .where('status_key', '=', 'uploaded');

/** The same rule for one loaded row (the orders list flags such orders "не передан"). */
export const awaitsHandover = (order: { handoverId: number | null; state: string; providerNumber: string | null; statusKey: string }) =>
  order.handoverId === null && order.state === 'active' && order.providerNumber !== null && order.statusKey === 'uploaded';

const placesAndWeight = (payload: string) => {
  const order = JSON.parse(payload) as OrderCreate;
  return { places: order.places.length, weightGrams: order.places.reduce((sum, p) => sum + p.weight, 0) };
};

/** The dispatch screen: what is to be handed over, per delivery service, and the handover itself. */
export function createDispatchService(deps: { db: Db; clock: Clock; providers: ProviderRegistry; events: EventBus }) {
  return {
    async pending(ctx: CallContext): Promise<{ groups: DispatchGroup[] }> {
      const rows = await awaitingHandover(deps.db, ctx.companyId)
        .select(['id', 'client_number', 'provider_key', 'provider_number', 'recipient_name', 'recipient_city', 'payload', 'created_at'])
        .orderBy('provider_key')
        .orderBy('id')
        .execute();
      const groups = new Map<string, DispatchGroup>();
      const now = deps.clock.now();
      for (const row of rows) {
        let group = groups.get(row.provider_key);
        if (!group) {
          group = {
            providerKey: row.provider_key,
            serviceName: deps.providers.get(row.provider_key)?.info.name ?? row.provider_key,
            orders: [],
            totals: { orders: 0, places: 0, weightGrams: 0 },
            nextActNumber: await nextHandoverNumber(deps.db, ctx.companyId, row.provider_key, now),
            formsBatches: !!deps.providers.get(row.provider_key)?.batches,
          };
          groups.set(row.provider_key, group);
        }
        const { places, weightGrams } = placesAndWeight(row.payload);
        group.orders.push({
          orderId: String(row.id),
          clientNumber: row.client_number,
          providerNumber: row.provider_number ?? '',
          recipientName: row.recipient_name,
          recipientCity: row.recipient_city,
          places,
          weightGrams,
          created: formatTimestamp(row.created_at),
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
      const handover = await deps.db.transaction().execute(async (trx) => {
        const valid = ids.filter((id) => Number.isSafeInteger(id) && id > 0);
        const rows = valid.length
          ? await awaitingHandover(trx, ctx.companyId).select(['id', 'payload']).where('provider_key', '=', input.providerKey).where('id', 'in', valid).execute()
          : [];
        const waiting = new Set(rows.map((r) => r.id));
        const refused = input.orderIds.flatMap((raw, i) =>
          waiting.has(ids[i]) ? [] : [{ field: `orderIds.${i}`, message: `order ${raw} is not waiting to be handed over to ${input.providerKey}` }],
        );
        if (refused.length) throw validationError(refused);
        const totals = rows.map((r) => placesAndWeight(r.payload)).reduce((t, p) => ({ places: t.places + p.places, weightGrams: t.weightGrams + p.weightGrams }), { places: 0, weightGrams: 0 });
        const now = deps.clock.now();
        const number = await nextHandoverNumber(trx, ctx.companyId, input.providerKey, now);
        const { id } = await trx
          .insertInto('handovers')
          .values({ company_id: ctx.companyId, provider_key: input.providerKey, number, handed_at: now, orders: rows.length, places: totals.places, weight_grams: totals.weightGrams })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx.updateTable('orders').set({ handover_id: id }).where('company_id', '=', ctx.companyId).where('id', 'in', [...waiting]).execute();
        return { number, handedAt: formatTimestamp(now), providerKey: input.providerKey, orders: rows.length, ...totals };
      });
      deps.events.publish({ type: 'orders.changed', companyId: ctx.companyId, orderIds: input.orderIds });
      return handover;
    },
  };
}
export type DispatchService = ReturnType<typeof createDispatchService>;

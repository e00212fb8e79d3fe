import type { PostalBatchInfo } from '../../../shared/contract/dispatch';
import type { FailedOrderEntry } from '../../../shared/contract/labels';
import { said } from '../../../shared/messages';
import { formatTimestamp, moscowDay } from '../../../shared/time';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import { badRequest, notFound, validationError } from '../errors';
import type { EventBus } from '../events';
import { ProviderRejectedError, ProviderUnavailableError, type TrackedShipment } from '../providers/provider';
import type { ProviderRegistry } from '../providers/registry';
import { serviceFailure, serviceUnavailable } from '../providers/service-failure';
import type { PostalBatch, PostalBatchesStore } from '../store/postal-batches/postal-batches-store';
import type { DispatchService } from './dispatch-service';

const info = (b: PostalBatch): PostalBatchInfo => ({
  id: b.id,
  providerKey: b.providerKey,
  name: b.name,
  mailType: b.mailType,
  mailCategory: b.mailCategory,
  sendingDate: b.sendingDate,
  orderIds: b.orderIds.map(String),
  created: formatTimestamp(b.createdAt),
  checkedIn: b.checkedInAt === null ? null : formatTimestamp(b.checkedInAt),
});

/** A service's failure as the interface's answer: its refusal a 400 in its words, its silence a 503. */
function failure(serviceName: string, error: unknown): never {
  if (error instanceof ProviderUnavailableError) throw serviceUnavailable(error);
  if (error instanceof ProviderRejectedError) throw badRequest(serviceFailure(serviceName, error)!);
  throw error;
}

/**
 * Russian Post's own flow on the dispatch screen: its registered orders wait in its backlog until the shop forms
 * batches for a sending date (the service splits them by mail type; each order gets its ШПИ there), then checks each
 * batch in (the Ф103 goes to the post office) and hands the parcels over. Ф7/Ф112 print as the orders' labels, the Ф103
 * register as their act.
 */
export function createPostalBatchService(deps: { store: PostalBatchesStore; providers: ProviderRegistry; clock: Clock; events: EventBus; dispatch: DispatchService }) {
  const carrierOf = (providerKey: string) => {
    const carrier = deps.providers.get(providerKey);
    if (!carrier?.batches) throw validationError([{ field: 'providerKey', message: `${providerKey} does not form batches` }]);
    return { carrier, batches: carrier.batches };
  };

  return {
    async list(ctx: CallContext): Promise<{ batches: PostalBatchInfo[] }> {
      return { batches: (await deps.store.list(ctx.companyId, 50)).map(info) };
    },

    /**
     * Batches of the named orders for the sending date (today in Moscow or later), all or nothing on our side: an order that is not waiting to be
     * handed over to this service refuses the whole. Orders the service refuses are listed with its words.
     */
    async form(ctx: CallContext, input: { providerKey: string; orderIds: string[]; sendingDate: string }): Promise<{ batches: PostalBatchInfo[]; refused: FailedOrderEntry[] }> {
      const { carrier, batches } = carrierOf(input.providerKey);
      // The service counts sending dates in Moscow: a day already gone there is refused here, in words, not as its PAST_SENDING_DATE.
      const today = moscowDay(deps.clock.now());
      if (input.sendingDate < today) throw validationError([{ field: 'sendingDate', ...said('dispatch.pastSendingDate', { date: input.sendingDate, today }) }]);
      const ids = input.orderIds.map((raw) => (/^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : NaN));
      const waiting = await deps.store.waiting(ctx.companyId, input.providerKey, ids.filter((id) => Number.isSafeInteger(id) && id > 0));
      const known = new Set(waiting.map((o) => o.id));
      const refusedInput = input.orderIds.flatMap((raw, i) => (known.has(ids[i]) ? [] : [{ field: `orderIds.${i}`, message: `order ${raw} is not waiting to be handed over to ${input.providerKey}` }]));
      if (refusedInput.length) throw validationError(refusedInput);
      const already = waiting.filter((o) => o.batchId !== null);
      const refused: FailedOrderEntry[] = already.map((o) => ({ orderId: String(o.id), ...said('dispatch.inBatchAlready', { number: o.clientNumber }) }));
      const byAccount = new Map<number | null, typeof waiting>();
      for (const o of waiting.filter((x) => x.batchId === null)) byAccount.set(o.providerConnectId, [...(byAccount.get(o.providerConnectId) ?? []), o]);
      const kept: PostalBatch[] = [];
      for (const [connectionId, orders] of byAccount) {
        const shipments: TrackedShipment[] = orders.map((o) => ({
          providerNumber: o.providerNumber,
          additionalProviderNumber: o.additionalProviderNumber,
          request: { companyId: ctx.companyId, orderId: o.id, clientNumber: o.clientNumber, order: o.order, providerNumber: o.providerNumber, additionalProviderNumber: o.additionalProviderNumber },
        }));
        let formed;
        try {
          formed = await batches.form(shipments, input.sendingDate);
        } catch (error) {
          failure(carrier.info.name, error);
        }
        const orderOf = new Map(orders.map((o) => [o.providerNumber, o.id]));
        kept.push(
          ...(await deps.store.keep(
            ctx.companyId,
            input.providerKey,
            connectionId,
            formed.batches.map((b) => ({
              name: b.name,
              mailType: b.mailType,
              mailCategory: b.mailCategory,
              sendingDate: b.sendingDate,
              placed: formed.placed.filter((p) => p.batchName === b.name && orderOf.has(p.providerNumber)).map((p) => ({ orderId: orderOf.get(p.providerNumber)!, barcode: p.barcode })),
            })),
            deps.clock.now(),
          )),
        );
        // The service's own words, framed for the window; the interface's message is its words alone, as before.
        refused.push(...formed.refused.map((r) => ({ orderId: String(orderOf.get(r.providerNumber) ?? r.providerNumber), ...said('dispatch.notBatched', { reason: r.message }) })));
      }
      deps.events.publish({ type: 'orders.changed', companyId: ctx.companyId, orderIds: input.orderIds });
      return { batches: kept.map(info), refused };
    },

    /** Sends the batch's Ф103 (once), then marks its orders still waiting as handed over, one handover. */
    async checkIn(ctx: CallContext, input: { batchId: number }): Promise<PostalBatchInfo> {
      const batch = await deps.store.find(ctx.companyId, input.batchId);
      if (!batch) throw notFound(said('notFound.batch', { id: input.batchId }));
      const { carrier, batches } = carrierOf(batch.providerKey);
      try {
        await batches.checkIn(batch.name, batch.providerConnectId ?? undefined);
      } catch (error) {
        failure(carrier.info.name, error);
      }
      await deps.store.checkedIn(batch.id, deps.clock.now());
      const waiting = await deps.store.waiting(ctx.companyId, batch.providerKey, batch.orderIds);
      if (waiting.length) await deps.dispatch.handOver(ctx, { providerKey: batch.providerKey, orderIds: waiting.map((o) => String(o.id)) });
      return info((await deps.store.find(ctx.companyId, batch.id))!);
    },
  };
}
export type PostalBatchService = ReturnType<typeof createPostalBatchService>;

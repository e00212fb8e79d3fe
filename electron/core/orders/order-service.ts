import type { OrderCreate, OrderCreated } from '../../../shared/schemas/order';
import type { OrderCanceled, OrderDeleted, OrderDetail, OrderView } from '../../../shared/schemas/order-detail';
import type { OrderListPage, OrderListQuery } from '../../../shared/schemas/orders-list';
import type { StatusKey } from '../../../shared/status-keys';
import { message, said } from '../../../shared/messages';

import { attentionReasonOf } from '../../../shared/attention';
import { awaitsHandover } from '../dispatch/dispatch-service';
import { formatTimestamp } from '../../../shared/time';
import { toRubles } from '../../../shared/money';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import { AppError, badRequest, orderNotFound, validationError } from '../errors';
import type { EventBus } from '../events';
import type { Outbox } from '../outbox/outbox';
import type { ProviderRegistry } from '../providers/registry';
import { ClientNumberTaken, type ListedOrder, type OrdersStore, type OrderWithJobs } from '../store/orders/orders-store';
import { orderDetail } from './order-detail';
import { planCancel, planDelete, planUpdate, type OrderSnapshot, type ServiceAbilities } from './order-lifecycle';
import { checkOrder } from './order-rules';
import type { ReferenceData } from './reference-data';
import { statusMessage } from './status-message';

const clientNumberInUse = (clientNumber: string) =>
  validationError([{ field: 'order.clientNumber', ...said('order.duplicateNumber', { number: clientNumber }) }]);

/** The store found the clientNumber taken (a live order has it, or a writer racing for it won). */
const takenNumber = (error: unknown) => {
  if (error instanceof ClientNumberTaken) throw clientNumberInUse(error.clientNumber);
  throw error;
};

/** Order ids are positive integers; anything else names no order (404, like an unknown one). */
function parseOrderId(raw: string | number): number {
  const text = String(raw).trim();
  if (!/^[1-9]\d{0,14}$/.test(text)) throw orderNotFound(text);
  return Number(text);
}

/** What every list of orders shows of one (the orders list, the stuck orders): its numbers, service, status and recipient. */
export const listedOrderRow = (o: ListedOrder) => ({
  orderId: String(o.id),
  clientNumber: o.clientNumber,
  providerKey: o.providerKey,
  providerNumber: o.providerNumber,
  statusKey: o.statusKey as StatusKey,
  statusDescription: o.statusDescription,
  /** The status text as data (shared/messages) when it is ours, for the window's language. */
  statusDescriptionMessage: o.statusDescriptionMessage,
  recipientName: o.recipientName,
});

export interface OrderServiceDeps {
  store: OrdersStore;
  /** Handovers' numbers, for the order screen. */
  handoverOf: (companyId: number, handoverId: number) => Promise<{ number: string; handedAt: number } | undefined>;
  clock: Clock;
  providers: ProviderRegistry;
  outbox: Outbox;
  events: EventBus;
  /** Reference lists (tariffs, points, additional services). */
  reference: ReferenceData;
}

export function createOrderService({ store, handoverOf, clock, providers, outbox, events, reference }: OrderServiceDeps) {
  /** Every synchronous rule of an order, the same for create and update (040002 with the fields named). */
  async function checkPayload(payload: OrderCreate) {
    const errors = await checkOrder(payload, providers.get(payload.order.providerKey), reference);
    if (errors.length) throw validationError(errors);
  }

  /** What the order's delivery service can do with a registered order. */
  function abilitiesOf(providerKey: string): ServiceAbilities {
    const provider = providers.get(providerKey);
    if (!provider) return { name: providerKey, update: false, cancel: false, withdraw: false };
    return {
      name: provider.info.key,
      update: provider.info.capabilities.update && typeof provider.update === 'function',
      cancel: provider.info.capabilities.cancel && typeof provider.cancel === 'function',
      withdraw: typeof provider.cancel === 'function' || typeof provider.remove === 'function',
    };
  }

  /** The company's order (canceled included) with its pending jobs as the state table reads it, or 404 040080. */
  function found(orderId: number, current: OrderWithJobs | undefined) {
    if (!current) throw orderNotFound(orderId);
    const { order, jobs } = current;
    const snapshot: OrderSnapshot = { state: order.state, statusKey: order.statusKey, providerNumber: order.providerNumber, jobs };
    return { order, jobs, snapshot };
  }

  function changed(ctx: CallContext, orderId: number) {
    events.publish({ type: 'orders.changed', companyId: ctx.companyId, orderIds: [String(orderId)] });
    outbox.kick();
  }

  const allowed = (plan: () => unknown) => {
    try {
      plan();
      return true;
    } catch (error) {
      if (error instanceof AppError) return false;
      throw error;
    }
  };

  return {
    /** Stores the order and queues it for its delivery service in one transaction; the transfer runs after commit. */
    async create(ctx: CallContext, payload: OrderCreate): Promise<OrderCreated> {
      await checkPayload(payload);
      const now = clock.now();
      const outcome = await store.createOrder({ companyId: ctx.companyId, payload, at: now });
      if (!('orderId' in outcome)) throw clientNumberInUse(payload.order.clientNumber);
      const { orderId } = outcome;
      changed(ctx, orderId);
      return { orderId: String(orderId), created: formatTimestamp(now) };
    },

    /** POST /orders/validate: every rule of create, clientNumber included; nothing is stored. */
    async validate(ctx: CallContext, payload: OrderCreate): Promise<{ valid: true }> {
      await checkPayload(payload);
      if (await store.clientNumberTaken(ctx.companyId, payload.order.clientNumber)) throw clientNumberInUse(payload.order.clientNumber);
      return { valid: true };
    },

    /**
     * POST /orders/{orderId}/resend: sends an order the service refused (`uploadingError`) again, with its
     * current data. Any other live order is answered the same with nothing added: one still on its way is
     * queued already, and a registered one got its changes queued by PUT.
     */
    async resend(ctx: CallContext, rawId: string | number): Promise<OrderCreated> {
      const orderId = parseOrderId(rawId);
      const now = clock.now();
      await store.changeOrder(ctx.companyId, orderId, now, (current) => {
        const { order, jobs } = found(orderId, current);
        if (order.state !== 'active') throw badRequest(said('order.canceledCreateAgain', { orderId }));
        // Still on its way, or registered (PUT queues the changes itself): nothing to send again.
        if (order.statusKey !== 'uploadingError') return null;
        return {
          status: { key: 'uploading', at: now, description: 'Sending to the delivery service again' },
          enqueue: jobs.some((j) => j.action === 'create') ? undefined : 'create',
        };
      });
      changed(ctx, orderId);
      return { orderId: String(orderId), created: formatTimestamp(now) };
    },

    /** GET /orders/{orderId}: the order's data, numbers and current status. */
    async get(ctx: CallContext, rawId: string | number): Promise<OrderDetail> {
      const orderId = parseOrderId(rawId);
      const order = await store.findOrder(ctx.companyId, orderId);
      if (!order) throw orderNotFound(orderId);
      return orderDetail(order);
    },

    /** The order screen: the detail, the status text and which changes the order allows now. */
    async view(ctx: CallContext, rawId: string | number): Promise<OrderView> {
      const orderId = parseOrderId(rawId);
      const { order, snapshot } = found(orderId, await store.findOrderWithJobs(ctx.companyId, orderId));
      const service = abilitiesOf(order.providerKey);
      const id = String(orderId);
      const handover = order.handoverId === null ? undefined : await handoverOf(ctx.companyId, order.handoverId);
      const job = await store.orderJobState(ctx.companyId, orderId);
      return {
        ...orderDetail(order),
        statusDescription: order.statusDescription ?? '',
        statusDescriptionMessage: order.statusDescriptionMessage,
        handover: handover ? { number: handover.number, handedAt: formatTimestamp(handover.handedAt) } : null,
        outbox: job && { ...job, nextAttemptAt: formatTimestamp(job.nextAttemptAt) },
        actions: {
          update: allowed(() => planUpdate(id, snapshot, service)),
          cancel: allowed(() => planCancel(id, snapshot, service)),
          delete: allowed(() => planDelete(id, snapshot, service)),
          labels: order.state === 'active' && order.providerNumber !== null,
        },
      };
    },

    /**
     * PUT /orders/{orderId}: replaces the order's data (the same payload and rules as create). Not yet
     * sent: the queued transfer takes the new data. Refused by the service: sent again. Registered: the
     * change goes to a service that supports update. See order-lifecycle for the whole table.
     */
    async update(ctx: CallContext, rawId: string | number, payload: OrderCreate): Promise<{ message: 'ok' }> {
      const orderId = parseOrderId(rawId);
      const id = String(orderId);
      const decide = (current: OrderWithJobs | undefined) => {
        const loaded = found(orderId, current);
        const plan = planUpdate(id, loaded.snapshot, abilitiesOf(loaded.order.providerKey));
        if (loaded.order.providerNumber !== null && payload.order.providerKey !== loaded.order.providerKey) {
          throw validationError([
            { field: 'order.providerKey', message: `the order is registered with ${loaded.order.providerKey}; it cannot move to another delivery service` },
          ]);
        }
        return { ...loaded, plan };
      };
      decide(await store.findOrderWithJobs(ctx.companyId, orderId)); // the order's state speaks before its data
      await checkPayload(payload);
      const now = clock.now();
      await store
        .changeOrder(ctx.companyId, orderId, now, (current) => {
          const { plan, jobs, order } = decide(current);
          if (plan.kind !== 'transfer') return { payload };
          return {
            payload,
            // Changes following changes still on their way: the order is already `uploading`.
            status:
              order.statusKey === 'uploading'
                ? undefined
                : {
                    key: 'uploading',
                    at: now,
                    ...statusMessage(message(plan.job === 'create' ? 'order.resending' : 'order.sendingChanges')),
                  },
            // A job of the same kind not tried yet will read the new data when it runs.
            enqueue: jobs.some((j) => j.action === plan.job && j.attempts === 0) ? undefined : plan.job,
          };
        })
        .catch(takenNumber);
      changed(ctx, orderId);
      return { message: 'ok' };
    },

    /** GET /orders/{orderId}/cancel: deliveryCanceled at once, the clientNumber free; the service is told after commit. */
    async cancel(ctx: CallContext, rawId: string | number): Promise<OrderCanceled> {
      const orderId = parseOrderId(rawId);
      const now = clock.now();
      await store.changeOrder(ctx.companyId, orderId, now, (current) => {
        const { order, snapshot } = found(orderId, current);
        const plan = planCancel(String(orderId), snapshot, abilitiesOf(order.providerKey));
        return {
          dropTransfers: true,
          state: 'canceled',
          status: { key: 'deliveryCanceled', at: now, ...statusMessage(message('order.canceledByClient')) },
          enqueue: plan.tellService ? 'cancel' : undefined,
        };
      });
      changed(ctx, orderId);
      return { orderId: String(orderId), canceled: formatTimestamp(now) };
    },

    /** DELETE /orders/{orderId}: gone from the lists, the clientNumber free; the service is told after commit where it holds the order. */
    async remove(ctx: CallContext, rawId: string | number): Promise<OrderDeleted> {
      const orderId = parseOrderId(rawId);
      const now = clock.now();
      await store.changeOrder(ctx.companyId, orderId, now, (current) => {
        const { order, snapshot } = found(orderId, current);
        const plan = planDelete(String(orderId), snapshot, abilitiesOf(order.providerKey));
        return { dropTransfers: true, state: 'deleted', enqueue: plan.tellService ? 'delete' : undefined };
      });
      changed(ctx, orderId);
      return { orderId: String(orderId), deleted: formatTimestamp(now) };
    },

    /** One page of the company's orders for the list screen. */
    async list(ctx: CallContext, query: OrderListQuery): Promise<OrderListPage> {
      const page = await store.listOrders(ctx.companyId, { ...query, limit: query.limit ?? 100, offset: query.offset ?? 0 });
      return {
        total: page.total,
        ...(page.capped ? { totalCapped: true } : {}),
        rows: page.orders.map((o) => ({
          ...listedOrderRow(o),
          recipientPhone: o.recipientPhone,
          recipientCity: o.recipientCity,
          codCost: toRubles(o.codKopecks),
          quotedDeliveryCost: o.quotedDeliveryKopecks === null ? null : toRubles(o.quotedDeliveryKopecks),
          deliveryCost: o.deliveryKopecks === null ? null : toRubles(o.deliveryKopecks),
          created: formatTimestamp(o.createdAt),
          awaitingHandover: awaitsHandover(o),
          attentionReason: o.state === 'active' ? attentionReasonOf({ statusKey: o.statusKey, providerNumber: o.providerNumber }) : null,
        })),
      };
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;

import type BetterSqlite3 from 'better-sqlite3';
import type { OrderCreate, OrderCreated } from '../../../shared/schemas/order';
import type { OrderCanceled, OrderDeleted, OrderDetail, OrderView } from '../../../shared/schemas/order-detail';
import type { OrderListPage, OrderListQuery } from '../../../shared/schemas/orders-list';
import type { StatusKey } from '../../../shared/status-keys';
import { message, said, storedMessage } from '../../../shared/messages';

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
import type { Db } from '../store/database';
import { orderDetail } from './order-detail';
import { planCancel, planDelete, planUpdate, type OrderSnapshot, type ServiceAbilities } from './order-lifecycle';
import {
  appendStatus, clientNumberTaken, dropTransfers, findOrder, markCanceled, markDeleted, pendingJobs, prepareOrderInserts, replacePayload, statusMessage,
  type DbOrTrx,
} from './order-repository';
import { listOrders } from './order-list';
import { checkOrder } from './order-rules';
import type { ReferenceData } from './reference-data';

const clientNumberInUse = (clientNumber: string) =>
  validationError([{ field: 'order.clientNumber', ...said('order.duplicateNumber', { number: clientNumber }) }]);

/** Two writers racing for one clientNumber: the partial unique index has the last word. */
const uniqueRace = (clientNumber: string) => (error: unknown) => {
  if (error instanceof Error && /UNIQUE constraint failed: orders/.test(error.message)) throw clientNumberInUse(clientNumber);
  throw error;
};

/** Order ids are positive integers; anything else names no order (404, like an unknown one). */
function parseOrderId(raw: string | number): number {
  const text = String(raw).trim();
  if (!/^[1-9]\d{0,14}$/.test(text)) throw orderNotFound(text);
  return Number(text);
}

export interface OrderServiceDeps {
  db: Db;
  /** The same connection, raw: creates are written with statements prepared once. */
  sqlite: BetterSqlite3.Database;
  clock: Clock;
  providers: ProviderRegistry;
  outbox: Outbox;
  events: EventBus;
  /** Reference lists (tariffs, points, additional services); the app's own database by default. */
  reference: ReferenceData;
}

interface PendingCreate {
  companyId: number;
  payload: OrderCreate;
  now: number;
  resolve(orderId: number): void;
  reject(error: unknown): void;
}

export function createOrderService({ db, sqlite, clock, providers, outbox, events, reference }: OrderServiceDeps) {
  const inserts = prepareOrderInserts(sqlite);
  /** One order, in its own savepoint: a refused one leaves the others of its group. */
  const insertOne = sqlite.transaction((p: PendingCreate) => {
    if (inserts.clientNumberTaken(p.companyId, p.payload.order.clientNumber)) throw clientNumberInUse(p.payload.order.clientNumber);
    const id = inserts.insert(p.companyId, p.payload, { key: 'uploading', at: p.now });
    outbox.enqueueNow(id, 'create');
    return id;
  });
  const insertGroup = sqlite.transaction((group: PendingCreate[]) =>
    group.map((p) => {
      try {
        return { id: insertOne(p) };
      } catch (error) {
        return { error };
      }
    }),
  );
  /**
   * Group commit: the creates that arrive during one turn of the event loop are written in one
   * transaction. A commit cost more than the rest of a POST /orders (bench create: 0.46 ms of about
   * 1.9 ms); many callers at once is the case that matters (32 connections, a shop's script).
   */
  let waiting: PendingCreate[] = [];
  async function writeWaiting() {
    const group = waiting;
    waiting = [];
    try {
      // Kysely's connection, held: no other transaction is open on it while the raw statements run.
      const results = await db.connection().execute(async () => insertGroup(group));
      results.forEach((r, i) => ('error' in r ? group[i].reject(r.error) : group[i].resolve(r.id as number)));
    } catch (error) {
      for (const p of group) p.reject(error);
    }
  }
  const insertCreated = (companyId: number, payload: OrderCreate, now: number) =>
    new Promise<number>((resolve, reject) => {
      waiting.push({ companyId, payload, now, resolve, reject });
      if (waiting.length === 1) setImmediate(() => void writeWaiting());
    });

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

  /** The company's order (canceled included) with its pending jobs, or 404 040080. */
  async function load(trx: DbOrTrx, ctx: CallContext, orderId: number) {
    const row = await findOrder(trx, ctx.companyId, orderId);
    if (!row) throw orderNotFound(orderId);
    const jobs = await pendingJobs(trx, orderId);
    const snapshot: OrderSnapshot = { state: row.state, statusKey: row.status_key, providerNumber: row.provider_number, jobs };
    return { row, jobs, snapshot };
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
      const orderId = await insertCreated(ctx.companyId, payload, now).catch(uniqueRace(payload.order.clientNumber));
      changed(ctx, orderId);
      return { orderId: String(orderId), created: formatTimestamp(now) };
    },

    /** POST /orders/validate: every rule of create, clientNumber included; nothing is stored. */
    async validate(ctx: CallContext, payload: OrderCreate): Promise<{ valid: true }> {
      await checkPayload(payload);
      if (await clientNumberTaken(db, ctx.companyId, payload.order.clientNumber)) throw clientNumberInUse(payload.order.clientNumber);
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
      await db.transaction().execute(async (trx) => {
        const { row, jobs } = await load(trx, ctx, orderId);
        if (row.state !== 'active') throw badRequest(`Order ${orderId} is canceled; create it again instead`);
        // Still on its way, or registered (PUT queues the changes itself): nothing to send again.
        if (row.status_key !== 'uploadingError') return;
        await appendStatus(trx, orderId, ctx.companyId, { key: 'uploading', at: now, description: 'Sending to the delivery service again' });
        if (!jobs.some((j) => j.action === 'create')) await outbox.enqueue(trx, orderId, 'create');
      });
      changed(ctx, orderId);
      return { orderId: String(orderId), created: formatTimestamp(now) };
    },

    /** GET /orders/{orderId}: the order's data, numbers and current status. */
    async get(ctx: CallContext, rawId: string | number): Promise<OrderDetail> {
      const orderId = parseOrderId(rawId);
      const row = await findOrder(db, ctx.companyId, orderId);
      if (!row) throw orderNotFound(orderId);
      return orderDetail(row);
    },

    /** The order screen: the detail, the status text and which changes the order allows now. */
    async view(ctx: CallContext, rawId: string | number): Promise<OrderView> {
      const orderId = parseOrderId(rawId);
      const { row, snapshot } = await load(db, ctx, orderId);
      const service = abilitiesOf(row.provider_key);
      const id = String(orderId);
      const handover = row.handover_id === null ? undefined : await db.selectFrom('handovers').select(['number', 'handed_at']).where('id', '=', row.handover_id).executeTakeFirst();
      return {
        ...orderDetail(row),
        statusDescription: row.status_description ?? '',
        statusDescriptionMessage: storedMessage(row.status_description_message),
        handover: handover ? { number: handover.number, handedAt: formatTimestamp(handover.handed_at) } : null,
        actions: {
          update: allowed(() => planUpdate(id, snapshot, service)),
          cancel: allowed(() => planCancel(id, snapshot, service)),
          delete: allowed(() => planDelete(id, snapshot, service)),
          labels: row.state === 'active' && row.provider_number !== null,
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
      const decide = async (trx: DbOrTrx) => {
        const loaded = await load(trx, ctx, orderId);
        const plan = planUpdate(id, loaded.snapshot, abilitiesOf(loaded.row.provider_key));
        if (loaded.row.provider_number !== null && payload.order.providerKey !== loaded.row.provider_key) {
          throw validationError([
            { field: 'order.providerKey', message: `the order is registered with ${loaded.row.provider_key}; it cannot move to another delivery service` },
          ]);
        }
        return { ...loaded, plan };
      };
      await decide(db); // the order's state speaks before its data
      await checkPayload(payload);
      const now = clock.now();
      await db
        .transaction()
        .execute(async (trx) => {
          const { plan, jobs, row } = await decide(trx);
          if (await clientNumberTaken(trx, ctx.companyId, payload.order.clientNumber, orderId)) throw clientNumberInUse(payload.order.clientNumber);
          await replacePayload(trx, orderId, payload, now);
          if (plan.kind === 'transfer') {
            // Changes following changes still on their way: the order is already `uploading`.
            if (row.status_key !== 'uploading') await appendStatus(trx, orderId, ctx.companyId, {
              key: 'uploading',
              at: now,
              ...statusMessage(message(plan.job === 'create' ? 'order.resending' : 'order.sendingChanges')),
            });
            // A job of the same kind not tried yet will read the new data when it runs.
            if (!jobs.some((j) => j.action === plan.job && j.attempts === 0)) await outbox.enqueue(trx, orderId, plan.job);
          }
        })
        .catch(uniqueRace(payload.order.clientNumber));
      changed(ctx, orderId);
      return { message: 'ok' };
    },

    /** GET /orders/{orderId}/cancel: deliveryCanceled at once, the clientNumber free; the service is told after commit. */
    async cancel(ctx: CallContext, rawId: string | number): Promise<OrderCanceled> {
      const orderId = parseOrderId(rawId);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        const { row, snapshot } = await load(trx, ctx, orderId);
        const plan = planCancel(String(orderId), snapshot, abilitiesOf(row.provider_key));
        await dropTransfers(trx, orderId);
        await markCanceled(trx, orderId, ctx.companyId, now);
        if (plan.tellService) await outbox.enqueue(trx, orderId, 'cancel');
      });
      changed(ctx, orderId);
      return { orderId: String(orderId), canceled: formatTimestamp(now) };
    },

    /** DELETE /orders/{orderId}: gone from the lists, the clientNumber free; the service is told after commit where it holds the order. */
    async remove(ctx: CallContext, rawId: string | number): Promise<OrderDeleted> {
      const orderId = parseOrderId(rawId);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        const { row, snapshot } = await load(trx, ctx, orderId);
        const plan = planDelete(String(orderId), snapshot, abilitiesOf(row.provider_key));
        await dropTransfers(trx, orderId);
        await markDeleted(trx, orderId, now);
        if (plan.tellService) await outbox.enqueue(trx, orderId, 'delete');
      });
      changed(ctx, orderId);
      return { orderId: String(orderId), deleted: formatTimestamp(now) };
    },

    /** One page of the company's orders for the list screen. */
    async list(ctx: CallContext, query: OrderListQuery): Promise<OrderListPage> {
      const page = await listOrders(db, ctx.companyId, { ...query, limit: query.limit ?? 100, offset: query.offset ?? 0 });
      return {
        total: page.total,
        ...(page.capped ? { totalCapped: true } : {}),
        rows: page.rows.map((r) => ({
          orderId: String(r.id),
          clientNumber: r.client_number,
          providerKey: r.provider_key,
          providerNumber: r.provider_number,
          statusKey: r.status_key as StatusKey,
          statusDescription: r.status_description,
          recipientName: r.recipient_name,
          recipientPhone: r.recipient_phone,
          recipientCity: r.recipient_city,
          codCost: toRubles(r.cod_kopecks),
          quotedDeliveryCost: r.quoted_delivery_cost,
          deliveryCost: r.delivery_cost,
          created: formatTimestamp(r.created_at),
          awaitingHandover: awaitsHandover(r),
          attentionReason: r.state === 'active' ? attentionReasonOf({ statusKey: r.status_key, providerNumber: r.provider_number }) : null,
        })),
      };
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;

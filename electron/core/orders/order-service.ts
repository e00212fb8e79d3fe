import type { OrderCreate, OrderCreated } from '../../../shared/schemas/order';
import type { OrderListPage, OrderListQuery } from '../../../shared/schemas/orders-list';
import type { StatusKey } from '../../../shared/status-keys';

import { formatTimestamp } from '../../../shared/time';
import { toRubles } from '../../../shared/money';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import { validationError } from '../errors';
import type { EventBus } from '../events';
import type { Outbox } from '../outbox/outbox';
import type { ProviderRegistry } from '../providers/registry';
import type { Db } from '../store/database';
import { clientNumberTaken, insertOrder, listOrders } from './order-repository';

const clientNumberInUse = (clientNumber: string) =>
  validationError([{ field: 'order.clientNumber', message: `clientNumber ${clientNumber} must be unique within the company` }]);

export interface OrderServiceDeps {
  db: Db;
  clock: Clock;
  providers: ProviderRegistry;
  outbox: Outbox;
  events: EventBus;
}

export function createOrderService({ db, clock, providers, outbox, events }: OrderServiceDeps) {
  /** Checks what the schema cannot: the service exists and accepts this tariff, point and payment. */
  async function checkWithProvider(payload: OrderCreate) {
    const provider = providers.get(payload.order.providerKey);
    if (!provider) {
      throw validationError([{ field: 'order.providerKey', message: `unknown delivery service ${payload.order.providerKey}` }]);
    }
    const errors = await provider.check(payload);
    if (errors.length) throw validationError(errors);
  }

  return {
    /** Stores the order and queues it for its delivery service in one transaction; the transfer runs after commit. */
    async create(ctx: CallContext, payload: OrderCreate): Promise<OrderCreated> {
      await checkWithProvider(payload);
      const now = clock.now();
      const orderId = await db
        .transaction()
        .execute(async (trx) => {
          if (await clientNumberTaken(trx, ctx.companyId, payload.order.clientNumber)) throw clientNumberInUse(payload.order.clientNumber);
          const id = await insertOrder(trx, ctx.companyId, payload, { key: 'uploading', at: now });
          await outbox.enqueue(trx, id, 'create');
          return id;
        })
        .catch((error: unknown) => {
          // Two creates racing for one clientNumber: the partial unique index has the last word.
          if (error instanceof Error && /UNIQUE constraint failed: orders/.test(error.message)) throw clientNumberInUse(payload.order.clientNumber);
          throw error;
        });
      events.publish({ type: 'orders.changed', companyId: ctx.companyId, orderIds: [String(orderId)] });
      outbox.kick();
      return { orderId: String(orderId), created: formatTimestamp(now) };
    },

    /** One page of the company's orders for the list screen. */
    async list(ctx: CallContext, query: OrderListQuery): Promise<OrderListPage> {
      const page = await listOrders(db, ctx.companyId, { ...query, limit: query.limit ?? 100, offset: query.offset ?? 0 });
      return {
        total: page.total,
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
          created: formatTimestamp(r.created_at),
        })),
      };
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;

import type BetterSqlite3 from 'better-sqlite3';
import type { Transaction } from 'kysely';
import type { OrderCreate } from '../../../shared/schemas/order';
import type { StatusKey } from '../../../shared/status-keys';
import { toKopecks } from '../../../shared/money';
import type { Db } from '../store/database';
import type { Schema } from '../store/schema';
import { message, wireText, type MessageRef } from '../../../shared/messages';

export type DbOrTrx = Db | Transaction<Schema>;

export interface NewStatus {
  key: StatusKey;
  at: number;
  description?: string | null;
  /** The description as data (shared/messages), so the window can say it in its language. */
  descriptionMessage?: MessageRef | null;
  errorCode?: string | null;
  providerCode?: string | null;
  providerName?: string | null;
  providerDescription?: string | null;
  createdProvider?: number | null;
}

/** The columns kept beside the payload, for lists, searches and the outbox (every path that writes an order uses these). */
export function columnsOf(payload: OrderCreate) {
  return {
    client_number: payload.order.clientNumber,
    provider_key: payload.order.providerKey,
    provider_connect_id: payload.order.providerConnectId ?? null,
    recipient_name: payload.recipient.contactName,
    recipient_phone: payload.recipient.phone,
    recipient_city: payload.recipient.city ?? null,
    cod_kopecks: toKopecks(payload.cost.codCost),
    assessed_kopecks: toKopecks(payload.cost.assessedCost),
    payload: JSON.stringify(payload),
  };
}

/**
 * The create path's statements, prepared once on the raw connection. Hand-written SQL because the
 * measurement said so (bench create): Kysely's driver prepares every statement anew and builds its
 * query tree per call, which with the commits was most of a POST /orders. The caller holds Kysely's
 * connection (db.connection()) and owns the transaction.
 */
export function prepareOrderInserts(sqlite: BetterSqlite3.Database) {
  const taken = sqlite.prepare<[number, string]>("SELECT 1 FROM orders WHERE company_id = ? AND client_number = ? AND state = 'active' LIMIT 1").pluck();
  const order = sqlite.prepare(
    `INSERT INTO orders (company_id, client_number, provider_key, provider_connect_id, recipient_name, recipient_phone, recipient_city,
       cod_kopecks, assessed_kopecks, payload, state, status_key, status_description, status_changed_at, created_at, updated_at)
     VALUES (@company_id, @client_number, @provider_key, @provider_connect_id, @recipient_name, @recipient_phone, @recipient_city,
       @cod_kopecks, @assessed_kopecks, @payload, 'active', @status_key, @status_description, @at, @at, @at)`,
  );
  const status = sqlite.prepare(
    `INSERT INTO order_statuses (order_id, company_id, key, description, description_message, created_at, provider_code, provider_name, provider_description, created_provider, error_code)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const current = sqlite.prepare('UPDATE orders SET status_key = ?, status_description = ?, status_description_message = ?, status_changed_at = ?, updated_at = ? WHERE id = ?');
  const addStatus = (orderId: number, companyId: number, s: NewStatus) =>
    status.run(orderId, companyId, s.key, s.description ?? null, messageJson(s.descriptionMessage), s.at, s.providerCode ?? null, s.providerName ?? null, s.providerDescription ?? null,
      s.createdProvider ?? null, s.errorCode ?? null);
  return {
    /** Is there a live order with this clientNumber in the company? */
    clientNumberTaken: (companyId: number, clientNumber: string) => taken.get(companyId, clientNumber) !== undefined,
    /** Inserts an order in its first status (the row already carries it, so nothing is written twice); returns its id. */
    insert(companyId: number, payload: OrderCreate, first: NewStatus): number {
      const description = first.description ?? null;
      const id = Number(
        order.run({ company_id: companyId, ...columnsOf(payload), status_key: first.key, status_description: description, at: first.at }).lastInsertRowid,
      );
      addStatus(id, companyId, first);
      return id;
    },
    /** appendStatus on the raw connection: records a status and makes it the order's current one. */
    appendStatus(orderId: number, companyId: number, next: NewStatus): void {
      addStatus(orderId, companyId, next);
      current.run(next.key, next.description ?? null, messageJson(next.descriptionMessage), next.at, next.at, orderId);
    },
  };
}

/** Replaces the order's data (PUT); its numbers and status stay as they are. */
export async function replacePayload(trx: DbOrTrx, orderId: number, payload: OrderCreate, at: number): Promise<void> {
  await trx.updateTable('orders').set({ ...columnsOf(payload), updated_at: at }).where('id', '=', orderId).execute();
}

/** The order's pending outbox jobs, oldest first. */
export function pendingJobs(trx: DbOrTrx, orderId: number) {
  return trx.selectFrom('outbox').select(['id', 'action', 'attempts']).where('order_id', '=', orderId).orderBy('id').execute();
}

/** Drops the jobs that would send the order's data: a canceled or deleted order needs none of them. */
export async function dropTransfers(trx: DbOrTrx, orderId: number): Promise<void> {
  await trx.deleteFrom('outbox').where('order_id', '=', orderId).where('action', 'in', ['create', 'update']).execute();
}

/** Cancels the order here: deliveryCanceled, and its clientNumber is free again. */
export async function markCanceled(trx: DbOrTrx, orderId: number, companyId: number, at: number): Promise<void> {
  await trx.updateTable('orders').set({ state: 'canceled', canceled_at: at }).where('id', '=', orderId).execute();
  await appendStatus(trx, orderId, companyId, { key: 'deliveryCanceled', at, ...statusMessage(message('order.canceledByClient')) });
}

/** Deletes the order here: it is gone from every list and its clientNumber is free again. */
export async function markDeleted(trx: DbOrTrx, orderId: number, at: number): Promise<void> {
  await trx.updateTable('orders').set({ state: 'deleted', deleted_at: at, updated_at: at }).where('id', '=', orderId).execute();
}

/** A status description that is ours: the interface's English and the message as data. */
export const statusMessage = (ref: MessageRef) => ({ description: wireText(ref), descriptionMessage: ref });

/** A message as stored beside its English text (JSON), or null. */
export const messageJson = (ref: MessageRef | null | undefined): string | null => (ref ? JSON.stringify(ref) : null);

/** Records a status and makes it the order's current one. */
export async function appendStatus(trx: DbOrTrx, orderId: number, companyId: number, status: NewStatus): Promise<void> {
  await trx
    .insertInto('order_statuses')
    .values({
      order_id: orderId,
      company_id: companyId,
      key: status.key,
      description: status.description ?? null,
      description_message: messageJson(status.descriptionMessage),
      created_at: status.at,
      provider_code: status.providerCode ?? null,
      provider_name: status.providerName ?? null,
      provider_description: status.providerDescription ?? null,
      created_provider: status.createdProvider ?? null,
      error_code: status.errorCode ?? null,
    })
    .execute();
  await trx
    .updateTable('orders')
    .set({ status_key: status.key, status_description: status.description ?? null, status_description_message: messageJson(status.descriptionMessage), status_changed_at: status.at, updated_at: status.at })
    .where('id', '=', orderId)
    .execute();
}

/** Is there a live (not canceled, not deleted) order with this clientNumber in the company? */
export async function clientNumberTaken(trx: DbOrTrx, companyId: number, clientNumber: string, exceptOrderId?: number) {
  let query = trx
    .selectFrom('orders')
    .select('id')
    .where('company_id', '=', companyId)
    .where('client_number', '=', clientNumber)
    .where('state', '=', 'active');
  if (exceptOrderId !== undefined) query = query.where('id', '!=', exceptOrderId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** The company's order by id, canceled ones included, or undefined (deleted ones and another company's are never found). */
export function findOrder(db: DbOrTrx, companyId: number, orderId: number) {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .where('company_id', '=', companyId)
    .where('state', '!=', 'deleted')
    .executeTakeFirst();
}

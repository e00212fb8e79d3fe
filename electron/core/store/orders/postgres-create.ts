import { sql } from 'kysely';
import type { Db } from '../database';
import type { CreateOutcome, OrderToCreate } from './orders-store';
import { columnsOf } from './rows';

/** Orders of one company and clientNumber are the same order to create: the first of a group has it. */
const numberKey = (o: OrderToCreate) => `${o.companyId}:${o.payload.order.clientNumber}`;

/**
 * PostgreSQL's create of a group of orders: one statement, so one round trip and no transaction of its own around
 * it (a statement is atomic). The orders go in as one JSON parameter; the live-number index leaves out any whose
 * clientNumber a live order has (one written meanwhile by another instance included: ON CONFLICT waits for it), and
 * the statuses and create jobs are inserted from what the order insert returned, so an order left out gets neither.
 * A clientNumber twice in the group is the first one's; the later ones are answered as taken.
 */
export async function createOrdersOnPostgres(db: Db, orders: OrderToCreate[]): Promise<CreateOutcome[]> {
  if (orders.length === 0) return [];
  const first = new Map<string, number>();
  orders.forEach((o, i) => {
    if (!first.has(numberKey(o))) first.set(numberKey(o), i);
  });
  const rows = [...first.values()].map((i) => ({ company_id: orders[i].companyId, at: orders[i].at, ...columnsOf(orders[i].payload) }));
  const { rows: made } = await sql<{ id: number | string; company_id: number | string; client_number: string }>`
    WITH made AS (
      INSERT INTO orders (company_id, client_number, provider_key, provider_connect_id, recipient_name, recipient_phone, recipient_city, cod_kopecks,
        assessed_kopecks, quoted_delivery_kopecks, delivery_kopecks, payload, state, status_key, status_description, status_changed_at, created_at, updated_at)
      SELECT o.company_id, o.client_number, o.provider_key, o.provider_connect_id, o.recipient_name, o.recipient_phone, o.recipient_city, o.cod_kopecks,
        o.assessed_kopecks, o.quoted_delivery_kopecks, o.delivery_kopecks, o.payload, 'active', 'uploading', NULL, o.at, o.at, o.at
      FROM ROWS FROM (jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS (company_id bigint, at bigint, client_number text, provider_key text,
          provider_connect_id bigint, recipient_name text, recipient_phone text, recipient_city text, cod_kopecks bigint, assessed_kopecks bigint,
          quoted_delivery_kopecks bigint, delivery_kopecks bigint, payload text))
        WITH ORDINALITY AS o(company_id, at, client_number, provider_key, provider_connect_id, recipient_name, recipient_phone, recipient_city,
          cod_kopecks, assessed_kopecks, quoted_delivery_kopecks, delivery_kopecks, payload, n)
      ORDER BY o.n
      ON CONFLICT (company_id, client_number) WHERE state = 'active' DO NOTHING
      RETURNING id, company_id, client_number, created_at
    ),
    statuses AS (INSERT INTO order_statuses (order_id, company_id, key, created_at) SELECT id, company_id, 'uploading', created_at FROM made),
    jobs AS (INSERT INTO outbox (order_id, action, attempts, next_attempt_at, last_error, created_at) SELECT id, 'create', 0, created_at, NULL, created_at FROM made)
    SELECT id, company_id, client_number FROM made`.execute(db);
  const idOf = new Map(made.map((r) => [`${Number(r.company_id)}:${r.client_number}`, Number(r.id)]));
  return orders.map((o, i): CreateOutcome => {
    const id = first.get(numberKey(o)) === i ? idOf.get(numberKey(o)) : undefined;
    return id === undefined ? { clientNumberTaken: true } : { orderId: id };
  });
}

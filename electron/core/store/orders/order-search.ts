import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { OrderListFilter, OrderSortKey } from '../../../../shared/schemas/orders-list';
import { needsAttention } from './attention-sql';
import type { Db } from '../database';
import type { Schema } from '../schema';

/** Sort keys of the list → the column behind each (an index per column, migration 0010). */
const sortColumns = {
  created: 'created_at',
  clientNumber: 'client_number',
  status: 'status_key',
  cod: 'cod_kopecks',
} as const satisfies Record<OrderSortKey, string>;

/**
 * A search counts its matches only up to this many: a one-letter search on a large shop matches most
 * orders, and "over 1,000" tells the user as much as the exact figure would after reading them all.
 * (The core answers one request at a time, so a long count would hold up the next keystroke's rows.)
 */
export const searchCountCap = 1_000;

/** A text as a LIKE pattern finding it anywhere (its wildcards and the escape character taken literally; escape `\\`). */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * How an engine finds the orders a typed search matches (their numbers, and the recipient's name, phone, e-mail,
 * city and street as shared/search-text.ts folds them, any variant of searchVariants): SQLite through its FTS5
 * index (sqlite.ts), PostgreSQL through a pg_trgm index on the same folded text (postgres.ts).
 */
export interface OrderSearchSql {
  /** The condition on `orders`; with `sample`, only among the search's newest `sample` index matches (see countSample). */
  matches(eb: ExpressionBuilder<Schema, 'orders'>, search: string, sample?: number): Expression<SqlBool>;
  /** Whether the search goes through the index (then a count looks at a sample of its newest matches first). */
  indexed(search: string): boolean;
}

/**
 * How many of a search's newest index matches the count looks at first. A search like "SBE0" matches
 * nearly every order; reading 100,000 matches to say "over 1,000" took ~100 ms, a sample of the newest
 * ones settles it in a few.
 */
const countSample = 5_000;

/** Epoch ms of a calendar day's start on this machine's clock (the shop's). */
function dayStart(date: string, plusDays = 0): number {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(y, m - 1, d + plusDays).getTime();
}

/**
 * The company's live (not deleted) orders that pass the list filter; shared by the list, the xlsx export and the
 * dashboard. A filter with a search needs the engine's `search`; `searchSample`: only among the search's newest
 * index matches (for counting, see countSample).
 */
export function filteredOrders(db: Db, companyId: number, filter: OrderListFilter, search?: OrderSearchSql, searchSample?: number) {
  let query = db.selectFrom('orders').where('company_id', '=', companyId).where('state', '!=', 'deleted');
  if (filter.search) {
    const text = filter.search;
    if (!search) throw new Error('A search of the orders list needs the engine\'s search (OrderSearchSql)');
    query = query.where((eb) => search.matches(eb, text, searchSample));
  }
  if (filter.statusKeys?.length) query = query.where('status_key', 'in', filter.statusKeys);
  if (filter.providerKey) query = query.where('provider_key', '=', filter.providerKey);
  if (filter.dateFrom) query = query.where('created_at', '>=', dayStart(filter.dateFrom));
  if (filter.dateTo) query = query.where('created_at', '<', dayStart(filter.dateTo, 1));
  if (filter.cod !== undefined) query = query.where('cod_kopecks', filter.cod ? '>' : '=', 0);
  if (filter.attention) query = query.where(needsAttention);
  return query;
}

/** Every column of an order but its data: what a list row shows (the payload is never read for a list). */
export const listedColumns = [
  'id', 'company_id', 'client_number', 'provider_key', 'provider_connect_id', 'state', 'status_key', 'status_description', 'status_description_message',
  'status_changed_at', 'provider_number', 'additional_provider_number', 'return_provider_number', 'barcode', 'tracking_url', 'recipient_name',
  'recipient_phone', 'recipient_city', 'cod_kopecks', 'assessed_kopecks', 'quoted_delivery_kopecks', 'delivery_kopecks', 'created_at', 'updated_at',
  'canceled_at', 'deleted_at', 'handover_id', 'attention_seen_at',
] as const;

export interface ListOrdersQuery extends OrderListFilter {
  sort?: OrderSortKey;
  direction?: 'asc' | 'desc';
  limit: number;
  offset: number;
  withTotal?: boolean;
}

/**
 * One window of the company's orders in the chosen order (newest first by default), with the number
 * that match: exact, except that a search stops counting at searchCountCap (then `capped`).
 * total is -1 when the caller asked for no count.
 */
export async function listOrders(db: Db, companyId: number, query: ListOrdersQuery, search: OrderSearchSql) {
  const base = filteredOrders(db, companyId, query, search);
  const column = sortColumns[query.sort ?? 'created'];
  const direction = query.direction ?? 'desc';
  const rows = await base
    .select(listedColumns)
    .orderBy(column, direction)
    .orderBy('id', direction)
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  if (query.withTotal === false) return { rows, total: -1, capped: false };
  const countUpTo = async (matching: ReturnType<typeof filteredOrders>, limit?: number) => {
    const ones = matching.select(sql<number>`1`.as('one'));
    const { n } = await db
      .selectFrom((limit === undefined ? ones : ones.limit(limit)).as('matching'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(n);
  };
  if (!query.search) return { rows, total: await countUpTo(base), capped: false };
  const capped = { rows, total: searchCountCap, capped: true };
  // Over the cap among the newest matches already: no need to read the rest. Otherwise count them all
  // (the sample held every match, or the matches are mostly deleted or another company's).
  if (search.indexed(query.search) && (await countUpTo(filteredOrders(db, companyId, query, search, countSample), searchCountCap + 1)) > searchCountCap) return capped;
  const total = await countUpTo(base, searchCountCap + 1);
  return total > searchCountCap ? capped : { rows, total, capped: false };
}

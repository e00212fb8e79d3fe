import { sql, type SqlBool } from 'kysely';
import { searchVariants } from '../../../../shared/search-text';
import { postgresText } from '../filter-sql';
import type { OpenedPostgres } from '../postgres';
import { containsPattern, type OrderSearchSql } from './order-search';
import type { OrdersStore } from './orders-store';
import { createOrdersQueries } from './queries';

/**
 * What an order is found by, folded as shared/search-text.ts folds it (lower case by ICU's root locale, ё → е; the
 * phone as digits with a leading 8 read as 7), each field on a line of its own so no match spans two of them:
 * PostgreSQL's built-in functions only. The very expression of the pg_trgm index `orders_search_trgm`
 * (migrations/postgres/0047_orders_search.sql): the two must stay the same, or the planner no longer uses the index.
 */
export const orderSearchText = sql.raw(String.raw`(translate(lower((client_number || E'\n' || coalesce(provider_number, '') || E'\n' || recipient_name || E'\n' || coalesce(payload::jsonb #>> '{recipient,email}', '') || E'\n' || coalesce(recipient_city, '') || E'\n' || coalesce(payload::jsonb #>> '{recipient,street}', '') || E'\n' || coalesce(payload::jsonb #>> '{recipient,addressString}', '')) COLLATE "und-x-icu"), 'ё', 'е') || E'\n' || CASE WHEN regexp_replace(recipient_phone, '\D', '', 'g') ~ '^8\d{10}$' THEN '7' || substr(regexp_replace(recipient_phone, '\D', '', 'g'), 2) ELSE regexp_replace(recipient_phone, '\D', '', 'g') END)`);

/** pg_trgm's index needs three characters of a pattern; shorter searches read the rows (they match many early). */
const trigramMinLength = 3;

/** Any variant of the search within the folded text (its LIKE wildcards taken literally). */
const anyVariant = (search: string) =>
  sql<SqlBool>`(${sql.join(
    searchVariants(search).map((v) => sql`${orderSearchText} LIKE ${containsPattern(v)}`),
    sql` OR `,
  )})`;

/** PostgreSQL's search: LIKE '%…%' on the folded text, which the trigram index serves. */
export const postgresOrderSearch: OrderSearchSql = {
  indexed: (search) => searchVariants(search).every((v) => [...v].length >= trigramMinLength),
  matches(eb, search, sample) {
    return sample === undefined
      ? anyVariant(search)
      : eb('id', 'in', sql<number>`(SELECT id FROM orders WHERE ${anyVariant(search)} ORDER BY id DESC LIMIT ${sample})`);
  },
};

/**
 * The orders store on PostgreSQL: the engine-neutral queries (queries.ts) over the pool, with the search on a pg_trgm
 * index, text folded by built-ins, and an order's row locked while a change reads and decides on it.
 */
export const createPostgresOrdersStore = ({ db }: OpenedPostgres): OrdersStore => createOrdersQueries(db, {
    text: postgresText,
    search: postgresOrderSearch,
    lockRows: true,
    payloadText: (path) => sql<string | null>`(payload::jsonb #>> ${sql.lit(`{${path.join(',')}}`)})`,
  });

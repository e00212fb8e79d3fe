import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { bindFilter, invalidFilter, parseFilter } from '../lists/filter';
import { conditionSql, type SqlFilterField } from '../store/filter-sql';
import { parseMoment } from './moment';

/**
 * The `filter` of the status lists: the grammar, field checks and SQL of the reference lists
 * (lists/filter.ts: 040010 malformed, 040011 not filterable), plus `created`, a date or timestamp
 * compared with =, > or < against the time the status was set.
 */
const created = { name: 'created', column: 's.created_at' };

/** Fields of one order's history. Status keys and clientNumbers compare without regard to case, like the lists' text. */
export const historyFilterFields: Record<string, SqlFilterField> = {
  key: { type: 'text', column: 's.key' },
};

/** Fields of GET /orders/statuses/interval. */
export const intervalFilterFields: Record<string, SqlFilterField> = {
  ...historyFilterFields,
  orderId: { type: 'int', column: 'o.id' },
  providerKey: { type: 'key', column: 'o.provider_key' },
  clientNumber: { type: 'text', column: 'o.client_number' },
};

/** The filter text as SQL conditions on `s` (order_statuses) and `o` (orders); none for no filter. */
export function statusFilterSql(text: string | undefined, fields: Record<string, SqlFilterField>): RawBuilder<SqlBool>[] {
  const conditions = parseFilter(text ?? '');
  // `created` is checked like any field (so 040011 lists it), then read from the text as written.
  const bound = bindFilter(conditions, { ...fields, [created.name]: { type: 'key', column: created.column } });
  return bound.map((c, i) => {
    if (c.field !== created.name) return conditionSql(c);
    if (c.op === '%' || conditions[i].array) throw invalidFilter('created takes one date or timestamp with =, > or <', [{ field: 'filter', message: 'created: use =, > or <' }]);
    const ms = parseMoment(conditions[i].values[0].text);
    if (Number.isNaN(ms)) {
      throw invalidFilter(`created takes an ISO 8601 date or timestamp; "${conditions[i].values[0].text}" is not one`, [{ field: 'filter', message: 'created: not a date' }]);
    }
    return sql<SqlBool>`${sql.ref(created.column)} ${sql.raw(c.op)} ${ms}`;
  });
}

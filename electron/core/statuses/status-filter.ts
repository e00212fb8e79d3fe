import { bindFilter, invalidFilter, parseFilter, type FilterField } from '../lists/filter';
import type { StatusFilter } from '../store/orders/orders-store';
import { parseMoment } from './moment';

/**
 * The `filter` of the status lists: the grammar and field checks of the reference lists (lists/filter.ts:
 * 040010 malformed, 040011 not filterable), plus `created`, a date or timestamp compared with =, > or <
 * against the time the status was set. Bound here; the orders store turns it into its engine's query.
 */
const created = 'created';

/** Fields of one order's history. Status keys and clientNumbers compare without regard to case, like the lists' text. */
export const historyFilterFields: Record<string, FilterField> = {
  key: { type: 'text' },
};

/** Fields of GET /orders/statuses/interval. */
export const intervalFilterFields: Record<string, FilterField> = {
  ...historyFilterFields,
  orderId: { type: 'int' },
  providerKey: { type: 'key' },
  clientNumber: { type: 'text' },
};

/** The filter text bound on the fields, `created` as epoch ms; none for no filter. */
export function statusFilter(text: string | undefined, fields: Record<string, FilterField>): StatusFilter {
  const conditions = parseFilter(text ?? '');
  // `created` is checked like any field (so 040011 lists it), then read from the text as written.
  const bound = bindFilter(conditions, { ...fields, [created]: { type: 'key' } });
  return bound.map((c, i) => {
    if (c.field !== created) return c;
    if (c.op === '%' || conditions[i].array) throw invalidFilter('created takes one date or timestamp with =, > or <', [{ field: 'filter', message: 'created: use =, > or <' }]);
    const ms = parseMoment(conditions[i].values[0].text);
    if (Number.isNaN(ms)) {
      throw invalidFilter(`created takes an ISO 8601 date or timestamp; "${conditions[i].values[0].text}" is not one`, [{ field: 'filter', message: 'created: not a date' }]);
    }
    return { field: created, spec: { type: 'int' }, op: c.op, values: [ms] };
  });
}

import type BetterSqlite3 from 'better-sqlite3';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { fold, type BoundCondition, type FilterField } from '../lists/filter';

/**
 * Bound filter conditions as SQL for Kysely. Column names come only from the list's whitelist
 * (the field specs); every value is a bound parameter, never spliced into the SQL text.
 */

/** Where a filterable field lives in its table. */
export interface SqlFilterField extends FilterField {
  /** The column, or several when a condition on the field holds if it holds for any (a point's city and community). */
  column: string | string[];
  /** The column already holds folded text (lower case, ё → е), so an index serves `=`. */
  folded?: boolean;
}

/** The SQL function the text conditions fold columns with; registered per connection. */
export const foldFunction = 'shipdesk_fold';

/** Registers the fold function on a connection (idempotent: registering again replaces it). */
export function registerFold(sqlite: BetterSqlite3.Database) {
  sqlite.function(foldFunction, { deterministic: true }, (value: unknown) => (typeof value === 'string' ? fold(value) : value));
}

function target(column: string, spec: SqlFilterField, op: BoundCondition['op']): RawBuilder<unknown> {
  const ref = sql.ref(column);
  if (spec.type === 'text' && !spec.folded) return sql`${sql.raw(foldFunction)}(${ref})`;
  // Keys are NOCASE columns: =, > and < already ignore ASCII case; instr does not.
  if (spec.type === 'key' && op === '%') return sql`lower(${ref})`;
  return ref;
}

function one(column: string, c: BoundCondition<SqlFilterField>): RawBuilder<SqlBool> {
  const col = target(column, c.spec, c.op);
  switch (c.op) {
    case '=':
      return c.values.length === 1 ? sql<SqlBool>`${col} = ${c.values[0]}` : sql<SqlBool>`${col} IN (${sql.join(c.values)})`;
    case '>':
      return sql<SqlBool>`${col} > ${c.values[0]}`;
    case '<':
      return sql<SqlBool>`${col} < ${c.values[0]}`;
    case '%':
      return sql<SqlBool>`instr(${col}, ${c.values[0]}) > 0`;
  }
}

/** One SQL condition for a bound filter condition. */
export function conditionSql(c: BoundCondition<SqlFilterField>): RawBuilder<SqlBool> {
  const columns = Array.isArray(c.spec.column) ? c.spec.column : [c.spec.column];
  const parts = columns.map((column) => one(column, c));
  return parts.length === 1 ? parts[0] : sql<SqlBool>`(${sql.join(parts, sql` OR `)})`;
}

/** All conditions ANDed; `1 = 1` when there are none. */
export function filterSql(conditions: BoundCondition<SqlFilterField>[]): RawBuilder<SqlBool> {
  if (conditions.length === 0) return sql<SqlBool>`1 = 1`;
  return sql<SqlBool>`${sql.join(conditions.map(conditionSql), sql` AND `)}`;
}

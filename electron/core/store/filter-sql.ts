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

/** How an engine folds, lowers and searches text in SQL (SQLite: a registered function; PostgreSQL: built-ins). */
export interface TextSql {
  /** The column's text lower-cased with ё → е, as `fold` does in JS. */
  fold(ref: RawBuilder<unknown>): RawBuilder<unknown>;
  /** The column's text lower-cased (a key's `%`: keys compare without case already for =, > and <). */
  lower(ref: RawBuilder<unknown>): RawBuilder<unknown>;
  /** Whether the text holds the value. */
  contains(text: RawBuilder<unknown>, value: unknown): RawBuilder<SqlBool>;
}

/** SQLite: the fold function registered per connection, NOCASE key columns, instr. */
export const sqliteText: TextSql = {
  fold: (ref) => sql`${sql.raw(foldFunction)}(${ref})`,
  lower: (ref) => sql`lower(${ref})`,
  contains: (text, value) => sql<SqlBool>`instr(${text}, ${value}) > 0`,
};

/**
 * PostgreSQL: built-in functions only (no function of ours in the database). ICU's root collation lower-cases any
 * script whatever the database's own locale; key columns are case-insensitive by their collation (shipdesk_nocase).
 */
export const postgresText: TextSql = {
  fold: (ref) => sql`translate(lower(${ref} COLLATE "und-x-icu"), 'ё', 'е')`,
  lower: (ref) => sql`lower(${ref} COLLATE "und-x-icu")`,
  contains: (text, value) => sql<SqlBool>`strpos(${text}, ${value}) > 0`,
};

function target(column: string, spec: SqlFilterField, op: BoundCondition['op'], text: TextSql): RawBuilder<unknown> {
  const ref = sql.ref(column);
  if (spec.type === 'text' && !spec.folded) return text.fold(ref);
  // Keys are NOCASE columns: =, > and < already ignore ASCII case; a containment test does not.
  if (spec.type === 'key' && op === '%') return text.lower(ref);
  return ref;
}

function one(column: string, c: BoundCondition<SqlFilterField>, text: TextSql): RawBuilder<SqlBool> {
  const col = target(column, c.spec, c.op, text);
  switch (c.op) {
    case '=':
      return c.values.length === 1 ? sql<SqlBool>`${col} = ${c.values[0]}` : sql<SqlBool>`${col} IN (${sql.join(c.values)})`;
    case '>':
      return sql<SqlBool>`${col} > ${c.values[0]}`;
    case '<':
      return sql<SqlBool>`${col} < ${c.values[0]}`;
    case '%':
      return text.contains(col, c.values[0]);
  }
}

/** One SQL condition for a bound filter condition. */
export function conditionSql(c: BoundCondition<SqlFilterField>, text: TextSql = sqliteText): RawBuilder<SqlBool> {
  const columns = Array.isArray(c.spec.column) ? c.spec.column : [c.spec.column];
  const parts = columns.map((column) => one(column, c, text));
  return parts.length === 1 ? parts[0] : sql<SqlBool>`(${sql.join(parts, sql` OR `)})`;
}

/** All conditions ANDed; `1 = 1` when there are none. */
export function filterSql(conditions: BoundCondition<SqlFilterField>[], text: TextSql = sqliteText): RawBuilder<SqlBool> {
  if (conditions.length === 0) return sql<SqlBool>`1 = 1`;
  return sql<SqlBool>`${sql.join(conditions.map((c) => conditionSql(c, text)), sql` AND `)}`;
}

import { isDeepStrictEqual } from 'node:util';
import { createPostgresOrdersStore } from '../orders/postgres';
import { createSqliteOrdersStore } from '../orders/sqlite';
import type { OpenedPostgres } from '../postgres';
import type { SqliteSource } from './source';

export interface SampleResult {
  /** Orders compared (the first, the last and random ones). */
  compared: number;
  /** Ids of the orders whose order or status history read differently on the two engines. */
  differing: number[];
}

/**
 * Reads a sample of orders (the first, the last and `size` random ones) through both engines' orders stores, each
 * with its status history, and answers which do not compare equal.
 */
export async function compareOrderSample(source: SqliteSource, target: OpenedPostgres, size: number): Promise<SampleResult> {
  const picked = source.sqlite
    .prepare(
      `SELECT id, company_id FROM orders WHERE id IN (SELECT min(id) FROM orders UNION SELECT max(id) FROM orders)
       UNION SELECT id, company_id FROM (SELECT id, company_id FROM orders ORDER BY random() LIMIT ?)`,
    )
    .all(size) as { id: number; company_id: number }[];
  const fromSqlite = createSqliteOrdersStore(source);
  const fromPostgres = createPostgresOrdersStore(target);
  const differing: number[] = [];
  for (const { id, company_id: companyId } of picked) {
    const [a, b] = await Promise.all([read(fromSqlite, companyId, id), read(fromPostgres, companyId, id)]);
    if (!isDeepStrictEqual(a, b)) differing.push(id);
  }
  return { compared: picked.length, differing };
}

async function read(store: ReturnType<typeof createSqliteOrdersStore>, companyId: number, id: number) {
  return { order: await store.findOrderWithJobs(companyId, id), statuses: await store.statusesOf([id]) };
}

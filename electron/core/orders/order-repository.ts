import type { Transaction } from 'kysely';
import type { Db } from '../store/database';
import type { Schema } from '../store/schema';

export type DbOrTrx = Db | Transaction<Schema>;

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

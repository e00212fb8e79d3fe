import type { Selectable } from 'kysely';
import type { OrderCreate } from '../../../../shared/schemas/order';
import type { OpenedDatabase, TransactionLock } from '../database';
import type { PostalBatchesTable } from '../schema';
import type { PostalBatch, PostalBatchesStore } from './postal-batches-store';

const toBatch = (row: Selectable<PostalBatchesTable>, orderIds: number[]): PostalBatch => ({
  id: row.id,
  companyId: row.company_id,
  providerKey: row.provider_key,
  providerConnectId: row.provider_connect_id,
  name: row.name,
  mailType: row.mail_type,
  mailCategory: row.mail_category,
  sendingDate: row.sending_date,
  createdAt: row.created_at,
  checkedInAt: row.checked_in_at,
  orderIds,
});

/** `lock`: taken per company and service in `keep`, so that a batch's name is looked up and added by one at a time (see TransactionLock). */
export function createSqlitePostalBatchesStore(opened: Pick<OpenedDatabase, 'db'>, lock?: TransactionLock): PostalBatchesStore {
  const { db } = opened;

  async function withOrders(rows: Selectable<PostalBatchesTable>[]): Promise<PostalBatch[]> {
    if (!rows.length) return [];
    const links = await db.selectFrom('postal_batch_orders').select(['batch_id', 'order_id']).where('batch_id', 'in', rows.map((r) => r.id)).orderBy('order_id').execute();
    return rows.map((r) => toBatch(r, links.filter((l) => l.batch_id === r.id).map((l) => l.order_id)));
  }

  return {
    async waiting(companyId, providerKey, ids) {
      if (!ids.length) return [];
      const rows = await db
        .selectFrom('orders')
        .leftJoin('postal_batch_orders', 'postal_batch_orders.order_id', 'orders.id')
        .select(['orders.id', 'orders.client_number', 'orders.provider_number', 'orders.additional_provider_number', 'orders.provider_connect_id', 'orders.payload', 'postal_batch_orders.batch_id'])
        .where('orders.company_id', '=', companyId)
        .where('orders.provider_key', '=', providerKey)
        .where('orders.id', 'in', ids)
        .where('orders.handover_id', 'is', null)
        .where('orders.state', '=', 'active')
        .where('orders.provider_number', 'is not', null)
        .where('orders.status_key', '=', 'uploaded')
        .orderBy('orders.id')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        clientNumber: r.client_number,
        providerNumber: r.provider_number!,
        additionalProviderNumber: r.additional_provider_number,
        providerConnectId: r.provider_connect_id,
        order: JSON.parse(r.payload) as OrderCreate,
        batchId: r.batch_id,
      }));
    },

    async keep(companyId, providerKey, providerConnectId, batches, at) {
      const ids = await db.transaction().execute(async (trx) => {
        await lock?.(trx, `postal-batches:${companyId}:${providerKey}`);
        const kept: number[] = [];
        for (const b of batches) {
          const existing = await trx
            .selectFrom('postal_batches')
            .select('id')
            .where('company_id', '=', companyId)
            .where('provider_key', '=', providerKey)
            .where('name', '=', b.name)
            .where((eb) => (providerConnectId === null ? eb('provider_connect_id', 'is', null) : eb('provider_connect_id', '=', providerConnectId)))
            .executeTakeFirst();
          const id =
            existing?.id ??
            (
              await trx
                .insertInto('postal_batches')
                .values({ company_id: companyId, provider_key: providerKey, provider_connect_id: providerConnectId, name: b.name, mail_type: b.mailType, mail_category: b.mailCategory, sending_date: b.sendingDate, created_at: at })
                .returning('id')
                .executeTakeFirstOrThrow()
            ).id;
          for (const p of b.placed) {
            await trx.insertInto('postal_batch_orders').values({ order_id: p.orderId, batch_id: id }).onConflict((oc) => oc.column('order_id').doUpdateSet({ batch_id: id })).execute();
            // The tracking number comes with the batch: the order carries it from now on (labels, tracking, search).
            await trx.updateTable('orders').set({ barcode: p.barcode, additional_provider_number: p.barcode, updated_at: at }).where('id', '=', p.orderId).where('company_id', '=', companyId).execute();
          }
          kept.push(id);
        }
        return kept;
      });
      if (!ids.length) return [];
      return withOrders(await db.selectFrom('postal_batches').selectAll().where('id', 'in', ids).orderBy('id').execute());
    },

    async list(companyId, limit) {
      return withOrders(await db.selectFrom('postal_batches').selectAll().where('company_id', '=', companyId).orderBy('id', 'desc').limit(limit).execute());
    },

    async find(companyId, id) {
      const row = await db.selectFrom('postal_batches').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
      return row ? (await withOrders([row]))[0] : null;
    },

    async checkedIn(id, at) {
      await db.updateTable('postal_batches').set({ checked_in_at: at }).where('id', '=', id).where('checked_in_at', 'is', null).execute();
    },
  };
}

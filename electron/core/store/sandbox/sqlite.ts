import type { Selectable } from 'kysely';
import type { OrderCreate } from '../../../../shared/schemas/order';
import type { OpenedDatabase } from '../database';
import type { SandboxShipmentsTable } from '../schema';
import type { SandboxShipment, SandboxStore } from './sandbox-store';

const toShipment = (r: Selectable<SandboxShipmentsTable>): SandboxShipment => ({
  providerNumber: r.provider_number,
  providerKey: r.provider_key,
  companyId: r.company_id,
  clientNumber: r.client_number,
  order: JSON.parse(r.payload) as OrderCreate,
  registeredAt: r.registered_at,
  canceledAt: r.canceled_at,
  removedAt: r.removed_at,
});

export function createSqliteSandboxStore({ db }: Pick<OpenedDatabase, 'db'>): SandboxStore {
  return {
    async liveShipment(providerKey, companyId, clientNumber) {
      const row = await db
        .selectFrom('sandbox_shipments')
        .selectAll()
        .where('provider_key', '=', providerKey)
        .where('company_id', '=', companyId)
        .where('client_number', '=', clientNumber)
        .where('canceled_at', 'is', null)
        .where('removed_at', 'is', null)
        .executeTakeFirst();
      return row ? toShipment(row) : null;
    },

    async shipment(providerKey, providerNumber) {
      const row = await db.selectFrom('sandbox_shipments').selectAll().where('provider_number', '=', providerNumber).where('provider_key', '=', providerKey).executeTakeFirst();
      return row ? toShipment(row) : null;
    },

    async shipments(providerKey, providerNumbers) {
      if (providerNumbers.length === 0) return [];
      const rows = await db.selectFrom('sandbox_shipments').selectAll().where('provider_number', 'in', providerNumbers).where('provider_key', '=', providerKey).execute();
      return rows.map(toShipment);
    },

    register(shipment, prefix) {
      // Numbers are the prefix and nine digits, so the highest is found on the primary key in O(log n) (a
      // count grew with every shipment and dominated bulk registration).
      return db.transaction().execute(async (trx) => {
        const { highest } = await trx
          .selectFrom('sandbox_shipments')
          .select((eb) => eb.fn.max('provider_number').as('highest'))
          .where('provider_number', '>=', `${prefix}000000000`)
          .where('provider_number', '<=', `${prefix}999999999`)
          .executeTakeFirstOrThrow();
        const next = highest ? Number(String(highest).slice(prefix.length)) + 1 : 1;
        const number = `${prefix}${String(next).padStart(9, '0')}`;
        await trx
          .insertInto('sandbox_shipments')
          .values({
            provider_number: number,
            provider_key: shipment.providerKey,
            company_id: shipment.companyId,
            client_number: shipment.clientNumber,
            payload: JSON.stringify(shipment.order),
            registered_at: shipment.registeredAt,
            canceled_at: null,
            removed_at: null,
          })
          .execute();
        return number;
      });
    },

    async update(providerNumber, change, now) {
      await db
        .updateTable('sandbox_shipments')
        .set({ payload: JSON.stringify(change.order), client_number: change.clientNumber, updated_at: now })
        .where('provider_number', '=', providerNumber)
        .execute();
    },

    async cancel(providerNumber, now) {
      await db.updateTable('sandbox_shipments').set({ canceled_at: now }).where('provider_number', '=', providerNumber).execute();
    },

    async remove(providerNumber, now) {
      await db.updateTable('sandbox_shipments').set({ removed_at: now }).where('provider_number', '=', providerNumber).execute();
    },
  };
}

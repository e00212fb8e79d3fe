import type { Db } from '../../store/database';
import { CDEK_KEY, cdekTariffRecords } from './mapping';
import { CDEK_POINT_SOURCE } from './offices-store';

/**
 * CDEK's parcel tariffs in the shared tariffs table (source 'cdek') while a CDEK connection exists, so
 * /lists/tariffs lists them beside the sandbox ones. An id another service already uses is left alone.
 */
export async function syncCdekTariffs(db: Db, connected: boolean): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('tariffs').where('source', '=', CDEK_POINT_SOURCE).execute();
    if (!connected) return;
    for (const t of cdekTariffRecords()) {
      await trx
        .insertInto('tariffs')
        .values({
          id: t.id,
          source: CDEK_POINT_SOURCE,
          provider_key: CDEK_KEY,
          name: t.name,
          description: t.description,
          alias_name: t.aliasName,
          weight_min: t.weightMin,
          weight_max: t.weightMax,
          pickup_type: t.pickupType,
          delivery_type: t.deliveryType,
          payment_cash: t.paymentCash,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    }
  });
}

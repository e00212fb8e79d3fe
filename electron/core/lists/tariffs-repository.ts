import type { Selectable } from 'kysely';
import { providerServiceSchema, tariffSchema, type ProviderService, type Tariff } from '../../../shared/schemas/lists';
import type { Db } from '../store/database';
import type { ProviderServicesTable, TariffsTable } from '../store/schema';
import type { BoundCondition } from './filter';
import { filterSql, type SqlFilterField } from './filter-sql';
import type { Page } from './points-repository';

/** Tariffs and additional services of the delivery services, as loaded from the reference data. */

export const tariffRecordFields = Object.keys(tariffSchema.shape) as (keyof Tariff)[];
export const serviceRecordFields = Object.keys(providerServiceSchema.shape) as (keyof ProviderService)[];

export const tariffFilterFields: Record<string, SqlFilterField> = {
  id: { type: 'int', column: 'id' },
  providerKey: { type: 'key', column: 'provider_key' },
  name: { type: 'text', column: 'name' },
  description: { type: 'text', column: 'description' },
  aliasName: { type: 'key', column: 'alias_name' },
  weightMin: { type: 'int', column: 'weight_min' },
  weightMax: { type: 'int', column: 'weight_max' },
  pickupType: { type: 'int', column: 'pickup_type' },
  deliveryType: { type: 'int', column: 'delivery_type' },
  paymentCash: { type: 'flag', column: 'payment_cash' },
};

export const serviceFilterFields: Record<string, SqlFilterField> = {
  providerKey: { type: 'key', column: 'provider_key' },
  name: { type: 'text', column: 'name' },
  extraParamName: { type: 'key', column: 'extra_param_name' },
  valueType: { type: 'key', column: 'value_type' },
  description: { type: 'text', column: 'description' },
};

export function tariffFromRow(r: Selectable<TariffsTable>): Tariff {
  return {
    id: r.id,
    providerKey: r.provider_key,
    name: r.name,
    description: r.description,
    aliasName: r.alias_name,
    weightMin: r.weight_min,
    weightMax: r.weight_max,
    pickupType: r.pickup_type as Tariff['pickupType'],
    deliveryType: r.delivery_type as Tariff['deliveryType'],
    paymentCash: r.payment_cash ? 1 : 0,
  };
}

export const tariffToRow = (source: string, t: Tariff): Selectable<TariffsTable> => ({
  id: t.id,
  source,
  provider_key: t.providerKey,
  name: t.name,
  description: t.description,
  alias_name: t.aliasName,
  weight_min: t.weightMin,
  weight_max: t.weightMax,
  pickup_type: t.pickupType,
  delivery_type: t.deliveryType,
  payment_cash: t.paymentCash,
});

export const serviceFromRow = (r: Selectable<ProviderServicesTable>): ProviderService => ({
  providerKey: r.provider_key,
  name: r.name,
  extraParamName: r.extra_param_name,
  valueType: r.value_type as ProviderService['valueType'],
  description: r.description,
});

export const serviceToRow = (source: string, s: ProviderService, position: number): Selectable<ProviderServicesTable> => ({
  provider_key: s.providerKey,
  extra_param_name: s.extraParamName,
  source,
  position,
  name: s.name,
  value_type: s.valueType,
  description: s.description,
});

/** One page of tariffs matching a bound `/lists/tariffs` filter, by id, with the matching total. */
export async function listTariffs(db: Db, filter: BoundCondition<SqlFilterField>[], page: Page): Promise<{ rows: Tariff[]; total: number }> {
  const where = filterSql(filter);
  const [rows, count] = await Promise.all([
    db.selectFrom('tariffs').selectAll().where(where).orderBy('id').limit(page.limit).offset(page.offset).execute(),
    db.selectFrom('tariffs').select((eb) => eb.fn.countAll<number>().as('n')).where(where).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(tariffFromRow), total: Number(count.n) };
}

/** Every tariff, or those of one delivery service, by id. */
export async function allTariffs(db: Db, providerKey?: string): Promise<Tariff[]> {
  let query = db.selectFrom('tariffs').selectAll();
  if (providerKey) query = query.where('provider_key', '=', providerKey);
  return (await query.orderBy('id').execute()).map(tariffFromRow);
}

/** The tariff `tariffId` of the delivery service, or null when the service has no such tariff. */
export async function findTariff(db: Db, providerKey: string, tariffId: number): Promise<Tariff | null> {
  if (!Number.isSafeInteger(tariffId)) return null;
  const row = await db.selectFrom('tariffs').selectAll().where('id', '=', tariffId).where('provider_key', '=', providerKey).executeTakeFirst();
  return row ? tariffFromRow(row) : null;
}

/** Whether the app has reference tariffs of the delivery service at all. */
export async function hasTariffs(db: Db, providerKey: string): Promise<boolean> {
  return (await db.selectFrom('tariffs').select('id').where('provider_key', '=', providerKey).limit(1).executeTakeFirst()) !== undefined;
}

/** Additional services matching a bound `/lists/services` filter, by provider and their order in the data. */
export async function listServices(db: Db, filter: BoundCondition<SqlFilterField>[] = []): Promise<ProviderService[]> {
  const rows = await db.selectFrom('provider_services').selectAll().where(filterSql(filter)).orderBy('provider_key').orderBy('position').execute();
  return rows.map(serviceFromRow);
}

/** The additional services of one delivery service (empty when it has none or is unknown). */
export async function servicesOf(db: Db, providerKey: string): Promise<ProviderService[]> {
  const rows = await db.selectFrom('provider_services').selectAll().where('provider_key', '=', providerKey).orderBy('position').execute();
  return rows.map(serviceFromRow);
}

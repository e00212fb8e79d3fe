import { sql } from 'kysely';
import type { Db } from '../../electron/core/store/database';
import type { OrderCreateInput } from '../../shared/schemas/order';
import { orderPayload } from './payloads';

/** Picks a sandbox point from the loaded reference data, so tests do not depend on ids in the data files. */
export async function pointOf(
  db: Db,
  providerKey: string,
  where: { city?: string; type?: number; cod?: 0 | 1; maxSizeA?: 'set' | 'none'; maxCod?: 'set' } = {},
): Promise<{ id: number; city: string; maxWeight: number | null; maxSizeA: number | null; maxCod: number | null }> {
  let q = db
    .selectFrom('points')
    .select(['id', 'city', 'max_weight', 'max_size_a', 'max_cod'])
    .where('provider_key', '=', providerKey)
    .where('enabled', '=', 1)
    .where('available_operation', 'in', [2, 3]);
  if (where.city) q = q.where('city', '=', where.city);
  if (where.type !== undefined) q = q.where('type', '=', where.type);
  if (where.cod !== undefined) q = q.where(sql`coalesce(cod, 0)`, '=', where.cod);
  if (where.maxSizeA === 'set') q = q.where('max_size_a', 'is not', null);
  if (where.maxSizeA === 'none') q = q.where('max_size_a', 'is', null);
  if (where.maxCod === 'set') q = q.where('max_cod', 'is not', null);
  const row = await q.orderBy('id').limit(1).executeTakeFirstOrThrow();
  return { id: row.id, city: row.city, maxWeight: row.max_weight, maxSizeA: row.max_size_a, maxCod: row.max_cod === null ? null : row.max_cod / 100 };
}

/**
 * A valid order for each sandbox service: express door to door (tariff 103), post to a post office
 * (tariff 201, cash on delivery), lockers to a parcel locker (tariff 302, prepaid: lockers take no cash).
 */
export async function sandboxPayload(
  db: Db,
  providerKey: 'sandbox-express' | 'sandbox-post' | 'sandbox-lockers',
  clientNumber: string,
  patch: (o: OrderCreateInput) => void = () => {},
): Promise<OrderCreateInput> {
  if (providerKey === 'sandbox-express') return orderPayload(clientNumber, patch);
  if (providerKey === 'sandbox-post') {
    const point = await pointOf(db, 'sandbox-post', { city: 'Санкт-Петербург', cod: 1 });
    return orderPayload(clientNumber, (o) => {
      Object.assign(o.order, { providerKey, tariffId: 201, deliveryType: 2, pickupType: 2, pointOutId: point.id });
      patch(o);
    });
  }
  const point = await pointOf(db, 'sandbox-lockers', { city: 'Санкт-Петербург', type: 2, maxSizeA: 'set' });
  return orderPayload(clientNumber, (o) => {
    Object.assign(o.order, { providerKey, tariffId: 302, deliveryType: 2, pickupType: 2, pointOutId: point.id });
    o.cost = { assessedCost: 2500, codCost: 0 };
    patch(o);
  });
}

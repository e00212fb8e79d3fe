import type { Trx } from '../store/orders/queries';

/** YYYYMMDD of a moment in local time: handover acts are numbered by the day the parcels leave. */
export function dayStamp(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * The number the next handover of this service today gets: «20261125-sandbox-express», then «…-2».
 * An act printed before the parcels are marked handed over shows the number the handover will take.
 */
export async function nextHandoverNumber(db: Trx, companyId: number, providerKey: string, now: number): Promise<string> {
  const base = `${dayStamp(now)}-${providerKey}`;
  const { n } = await db
    .selectFrom('handovers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', companyId)
    .where((eb) => eb.or([eb('number', '=', base), eb('number', 'like', `${base}-%`)]))
    .executeTakeFirstOrThrow();
  return Number(n) === 0 ? base : `${base}-${Number(n) + 1}`;
}

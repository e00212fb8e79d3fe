import type { Clock } from '../../clock';
import type { Db } from '../../store/database';
import { ProviderUnavailableError } from '../provider';
import type { CdekClient } from './client';
import { CDEK_KEY } from './mapping';
import { beginOfficeSync, disableUnseenOffices, writeOffices } from './offices-store';
import { cdekOfficeSchema, type CdekOffice } from './wire';

export const OFFICES_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface OfficesSyncDeps {
  client: CdekClient;
  db: Db;
  clock: Clock;
  /** Offices per page (`size`). */
  pageSize?: number;
  /** Extra tries of one page after a transient failure, so one hiccup does not restart a long sync. */
  pageRetries?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface OfficesSyncResult {
  total: number;
  pages: number;
  disabled: number;
  /** Offices CDEK sent that ShipDesk could not read (logged, not stored). */
  skipped: number;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function setState(db: Db, values: { synced_at?: number; attempted_at: number; total?: number; last_error: string | null }) {
  await db
    .insertInto('provider_sync_state')
    .values({ provider_key: CDEK_KEY, what: 'offices', synced_at: values.synced_at ?? null, attempted_at: values.attempted_at, total: values.total ?? null, last_error: values.last_error })
    .onConflict((oc) => oc.columns(['provider_key', 'what']).doUpdateSet(values))
    .execute();
}

/** When the offices were last synced completely (epoch ms), or null. */
export async function officesSyncedAt(db: Db): Promise<number | null> {
  const row = await db.selectFrom('provider_sync_state').select('synced_at').where('provider_key', '=', CDEK_KEY).where('what', '=', 'offices').executeTakeFirst();
  return row?.synced_at ?? null;
}

/**
 * Downloads every CDEK office (`GET /v2/deliverypoints`, paged by the X-Total-Pages header) into the
 * points table, so they are searched offline afterwards (/lists/points, the point picker).
 * Each page is written as it arrives; only a complete pass disables offices that CDEK no longer lists.
 */
export async function syncOffices(deps: OfficesSyncDeps): Promise<OfficesSyncResult> {
  const { client, db, clock } = deps;
  const size = deps.pageSize ?? 1000;
  const retries = deps.pageRetries ?? 2;
  const sleep = deps.sleep ?? realSleep;
  const run = await beginOfficeSync(db);
  let total = 0;
  let skipped = 0;
  let page = 0;
  try {
    for (;;) {
      let reply;
      for (let attempt = 0; ; attempt++) {
        try {
          reply = await client.call<unknown>('GET', '/deliverypoints', { query: { type: 'ALL', size, page } });
          break;
        } catch (error) {
          if (!(error instanceof ProviderUnavailableError) || attempt >= retries) throw error;
          await sleep(500 * (attempt + 1));
        }
      }
      const list = Array.isArray(reply.body) ? reply.body : [];
      const offices: CdekOffice[] = [];
      for (const raw of list) {
        const parsed = cdekOfficeSchema.safeParse(raw);
        if (parsed.success) offices.push(parsed.data);
        else skipped++;
      }
      await writeOffices(db, run, offices);
      total += offices.length;
      const totalPages = Number(reply.headers.get('x-total-pages'));
      page++;
      const more = Number.isFinite(totalPages) && reply.headers.has('x-total-pages') ? page < totalPages : list.length >= size && list.length > 0;
      if (!more) break;
    }
  } catch (error) {
    await setState(db, { attempted_at: clock.now(), last_error: error instanceof Error ? error.message : String(error) });
    throw error;
  }
  const disabled = await disableUnseenOffices(db, run);
  await setState(db, { synced_at: clock.now(), attempted_at: clock.now(), total, last_error: null });
  return { total, pages: page, disabled, skipped };
}

/** Syncs when the last complete sync is older than a day (or never happened); null when fresh. */
export async function syncOfficesIfStale(deps: OfficesSyncDeps, maxAgeMs = OFFICES_MAX_AGE_MS): Promise<OfficesSyncResult | null> {
  const syncedAt = await officesSyncedAt(deps.db);
  if (syncedAt !== null && deps.clock.now() - syncedAt < maxAgeMs) return null;
  return syncOffices(deps);
}

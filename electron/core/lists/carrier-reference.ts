import type { Point, Tariff } from '../../../shared/schemas/lists';
import type { Clock } from '../clock';
import { ProviderUnavailableError } from '../providers/provider';
import type { Db } from '../store/database';
import type { StoredReference } from '../providers/carrier-kind';
import { findPoint, pointToRow } from './points-repository';
import { tariffToRow } from './tariffs-repository';

/**
 * Reference data a carrier hands over (its pickup points page by page, its tariffs) and this module stores in
 * the shared points and tariffs tables, where /lists/* and the point picker read it offline. Carriers never
 * write these tables themselves: they answer pages, the lists keep them.
 */

/** One page of a carrier's points: each with the service's own code; `toPoint` builds our record once the store gives the id. */
export interface PointPage {
  points: { code: string; toPoint(id: number): Point }[];
  /** Records the carrier could not read (logged by the caller, never stored). */
  skipped: number;
  more: boolean;
}

/** A carrier's points, as its `referenceData.points`. */
export interface PointSource {
  providerKey: string;
  /** The `source` of its rows in the shared tables. */
  source: string;
  /** New points get ids above this, clear of the shipped datasets' ids. */
  idBase: number;
  page(index: number): Promise<PointPage>;
}

/** The reference-data capability of a carrier. */
export interface CarrierReferenceData {
  points?: PointSource;
  /** The tariffs the service offers while it is connected. */
  tariffs?: () => Tariff[];
}

export interface PointSyncResult {
  total: number;
  pages: number;
  disabled: number;
  skipped: number;
}

export const POINTS_MAX_AGE_MS = 24 * 60 * 60 * 1000;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function setState(db: Db, providerKey: string, values: { synced_at?: number; attempted_at: number; total?: number; last_error: string | null }) {
  await db
    .insertInto('provider_sync_state')
    .values({ provider_key: providerKey, what: 'offices', synced_at: values.synced_at ?? null, attempted_at: values.attempted_at, total: values.total ?? null, last_error: values.last_error })
    .onConflict((oc) => oc.columns(['provider_key', 'what']).doUpdateSet(values))
    .execute();
}

/** When a carrier's points were last synced completely (epoch ms), or null. */
export async function pointsSyncedAt(db: Db, providerKey: string): Promise<number | null> {
  const row = await db.selectFrom('provider_sync_state').select('synced_at').where('provider_key', '=', providerKey).where('what', '=', 'offices').executeTakeFirst();
  return row?.synced_at ?? null;
}

/** Writes one page in one transaction: a point keeps its id across syncs (matched by code), new ones get the next id. */
async function writePage(db: Db, source: PointSource, run: { ids: Map<string, number>; nextId: number; seen: Set<number> }, page: PointPage) {
  if (page.points.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const { code, toPoint } of page.points) {
      const known = run.ids.get(code);
      const id = known ?? run.nextId++;
      const row = pointToRow(source.source, toPoint(id));
      if (known === undefined) {
        await trx.insertInto('points').values(row).execute();
        run.ids.set(code, id);
      } else {
        const { id: _id, ...rest } = row;
        await trx.updateTable('points').set(rest).where('id', '=', id).execute();
      }
      run.seen.add(id);
    }
  });
}

/**
 * Asks the carrier for every page of its points and stores each as it arrives; only a complete pass
 * disables the points the carrier no longer lists (kept, so old orders still resolve). A page that fails
 * transiently is asked again a couple of times, so one hiccup does not restart a long sync.
 */
export async function syncCarrierPoints(deps: { db: Db; clock: Clock; sleep?: (ms: number) => Promise<void>; pageRetries?: number }, source: PointSource): Promise<PointSyncResult> {
  const { db, clock } = deps;
  const sleep = deps.sleep ?? realSleep;
  const retries = deps.pageRetries ?? 2;
  const rows = await db.selectFrom('points').select(['id', 'code']).where('source', '=', source.source).execute();
  const { top } = await db.selectFrom('points').select((eb) => eb.fn.max('id').as('top')).executeTakeFirstOrThrow();
  const run = { ids: new Map(rows.map((r) => [r.code, r.id])), nextId: Math.max(source.idBase, Number(top ?? 0)) + 1, seen: new Set<number>() };
  let total = 0;
  let skipped = 0;
  let pages = 0;
  try {
    for (let more = true; more; pages++) {
      let page: PointPage;
      for (let attempt = 0; ; attempt++) {
        try {
          page = await source.page(pages);
          break;
        } catch (error) {
          if (!(error instanceof ProviderUnavailableError) || attempt >= retries) throw error;
          await sleep(500 * (attempt + 1));
        }
      }
      await writePage(db, source, run, page);
      total += page.points.length;
      skipped += page.skipped;
      more = page.more;
    }
  } catch (error) {
    await setState(db, source.providerKey, { attempted_at: clock.now(), last_error: error instanceof Error ? error.message : String(error) });
    throw error;
  }
  const gone = [...run.ids.values()].filter((id) => !run.seen.has(id));
  let disabled = 0;
  for (let i = 0; i < gone.length; i += 500) {
    const result = await db.updateTable('points').set({ enabled: 0 }).where('id', 'in', gone.slice(i, i + 500)).where('enabled', '=', 1).executeTakeFirst();
    disabled += Number(result.numUpdatedRows);
  }
  await setState(db, source.providerKey, { synced_at: clock.now(), attempted_at: clock.now(), total, last_error: null });
  return { total, pages, disabled, skipped };
}

/** Syncs when the last complete sync is older than a day (or never happened); null when fresh. */
export async function syncCarrierPointsIfStale(deps: Parameters<typeof syncCarrierPoints>[0], source: PointSource, maxAgeMs = POINTS_MAX_AGE_MS): Promise<PointSyncResult | null> {
  const syncedAt = await pointsSyncedAt(deps.db, source.providerKey);
  if (syncedAt !== null && deps.clock.now() - syncedAt < maxAgeMs) return null;
  return syncCarrierPoints(deps, source);
}

/**
 * A connected carrier's tariffs in the shared tariffs table (by `source`), so /lists/tariffs lists them beside
 * the sandbox ones; none once it is disconnected. An id another service already uses is left alone.
 */
export async function storeCarrierTariffs(db: Db, source: string, tariffs: Tariff[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('tariffs').where('source', '=', source).execute();
    for (const t of tariffs) {
      await trx
        .insertInto('tariffs')
        .values(tariffToRow(source, t))
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    }
  });
}

/** What carriers may read of the stored reference data for their own checks. */
export const createStoredReference = (db: Db): StoredReference => ({ point: (providerKey, id) => findPoint(db, providerKey, id) });

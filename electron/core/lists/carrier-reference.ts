import type { Point, Tariff } from '../../../shared/schemas/lists';
import type { Clock } from '../clock';
import { ProviderUnavailableError } from '../providers/provider';
import type { StoredReference } from '../providers/carrier-kind';
import type { ReferenceStore } from '../store/reference/reference-store';

/**
 * Reference data a carrier hands over (its pickup points page by page, its tariffs) and this module keeps in
 * the reference store beside every other service's, where /lists/* and the point picker read it offline.
 * Carriers never store it themselves: they answer pages, the lists keep them.
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

/** What a carrier's points sync is recorded as. */
const OFFICES = 'offices';

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A point keeps its id across syncs (matched by the service's code); a new one gets the next free id. */
function withIds(run: { ids: Map<string, number>; nextId: number; seen: Set<number> }, page: PointPage): Point[] {
  // A code listed twice on a page is stored once, as last listed.
  const byId = new Map<number, Point>();
  for (const { code, toPoint } of page.points) {
    let id = run.ids.get(code);
    if (id === undefined) {
      id = run.nextId++;
      run.ids.set(code, id);
    }
    run.seen.add(id);
    byId.set(id, toPoint(id));
  }
  return [...byId.values()];
}

/**
 * Asks the carrier for every page of its points and stores each as it arrives; only a complete pass
 * disables the points the carrier no longer lists (kept, so old orders still resolve). A page that fails
 * transiently is asked again a couple of times, so one hiccup does not restart a long sync.
 */
export async function syncCarrierPoints(
  deps: { reference: ReferenceStore; clock: Clock; sleep?: (ms: number) => Promise<void>; pageRetries?: number },
  source: PointSource,
): Promise<PointSyncResult> {
  const { reference, clock } = deps;
  const sleep = deps.sleep ?? realSleep;
  const retries = deps.pageRetries ?? 2;
  const known = await reference.pointIds(source.source);
  const run = { ids: known.byCode, nextId: Math.max(source.idBase, known.highest) + 1, seen: new Set<number>() };
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
      await reference.putPoints(source.source, withIds(run, page));
      total += page.points.length;
      skipped += page.skipped;
      more = page.more;
    }
  } catch (error) {
    await reference.recordSync(source.providerKey, OFFICES, { attemptedAt: clock.now(), error: error instanceof Error ? error.message : String(error) });
    throw error;
  }
  const disabled = await reference.closePointsExcept(source.source, run.seen);
  await reference.recordSync(source.providerKey, OFFICES, { syncedAt: clock.now(), attemptedAt: clock.now(), total, error: null });
  return { total, pages, disabled, skipped };
}

/** Syncs when the last complete sync is older than a day (or never happened); null when fresh. */
export async function syncCarrierPointsIfStale(deps: Parameters<typeof syncCarrierPoints>[0], source: PointSource, maxAgeMs = POINTS_MAX_AGE_MS): Promise<PointSyncResult | null> {
  const syncedAt = await deps.reference.syncedAt(source.providerKey, OFFICES);
  if (syncedAt !== null && deps.clock.now() - syncedAt < maxAgeMs) return null;
  return syncCarrierPoints(deps, source);
}

/**
 * A connected carrier's tariffs beside the sandbox ones (by `source`), so /lists/tariffs lists them; none once
 * it is disconnected. An id another service already uses is left alone.
 */
export const storeCarrierTariffs = (reference: ReferenceStore, source: string, tariffs: Tariff[]): Promise<void> => reference.replaceTariffs(source, tariffs);

/** What carriers may read of the stored reference data for their own checks. */
export const createStoredReference = (reference: ReferenceStore): StoredReference => ({ point: (providerKey, id) => reference.findPoint(providerKey, id) });

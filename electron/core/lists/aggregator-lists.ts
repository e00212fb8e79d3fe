import type { Point, ProviderService, Tariff } from '../../../shared/schemas/lists';
import type { CatalogueEntry, ReferenceStore } from '../store/reference/reference-store';

/**
 * What an aggregator connection answers (its service list, and the tariffs, additional services and points of
 * those services), kept by lists/ in the reference store under the connection's `source`, so its services are
 * listed, searched and checked like any others (offline too). The aggregator reads; it never stores.
 */

/** One aggregator connection's reference data, read from it on demand. */
export interface AggregatorReferenceData {
  /** The `source` of its records, and the key its syncs are recorded under. */
  source: string;
  connectionId: number;
  /** Records it sent that ShipDesk could not read or take over (not stored), so far. */
  readonly counts: { skipped: number };
  catalogue(): Promise<CatalogueEntry[]>;
  /** Of the services in `keys` (remote keys of the catalogue) only. */
  tariffs(keys: ReadonlySet<string>): Promise<Tariff[]>;
  services(keys: ReadonlySet<string>): Promise<ProviderService[]>;
  /** Page by page; a point keeps its id across syncs (the aggregator computes it). */
  points(keys: ReadonlySet<string>): AsyncIterable<Point[]>;
}

export interface AggregatorSyncResult {
  services: number;
  tariffs: number;
  additionalServices: number;
  points: number;
  skipped: number;
}

/** What the sync records are called: the service list alone, and everything. */
export const CATALOGUE = 'catalogue';
export const EVERYTHING = 'all';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createAggregatorLists(reference: ReferenceStore) {
  /** The service list, then the tariffs and additional services of those services (small). */
  async function storeLists(data: AggregatorReferenceData, now: () => number) {
    const entries = await data.catalogue();
    const at = now();
    await reference.putCatalogue(data.connectionId, entries, at);
    await reference.recordSync(data.source, CATALOGUE, { syncedAt: at, attemptedAt: at, total: entries.length, error: null });
    const keys = new Set(entries.map((e) => e.remoteKey));
    const tariffs = await data.tariffs(keys);
    await reference.replaceTariffs(data.source, tariffs);
    const services = await data.services(keys);
    await reference.replaceServices(data.source, services);
    return { entries, keys, tariffs: tariffs.length, additionalServices: services.length };
  }

  return {
    /** The lists without the points; the service list it stored. */
    syncLists: async (data: AggregatorReferenceData, now: () => number): Promise<CatalogueEntry[]> => (await storeLists(data, now)).entries,

    /**
     * Everything: the lists, then the points page by page (each page stored as it comes); only a complete
     * pass closes the points the aggregator no longer lists (kept, so old orders still resolve).
     */
    async syncAll(data: AggregatorReferenceData, now: () => number): Promise<AggregatorSyncResult> {
      const attempted = now();
      try {
        const { entries, keys, tariffs, additionalServices } = await storeLists(data, now);
        const seen = new Set<number>();
        for await (const page of data.points(keys)) {
          await reference.putPoints(data.source, page);
          for (const p of page) seen.add(p.id);
        }
        await reference.closePointsExcept(data.source, seen);
        await reference.recordSync(data.source, EVERYTHING, { syncedAt: now(), attemptedAt: attempted, total: seen.size, error: null });
        return { services: entries.length, tariffs, additionalServices, points: seen.size, skipped: data.counts.skipped };
      } catch (error) {
        await reference.recordSync(data.source, EVERYTHING, { attemptedAt: attempted, error: message(error) });
        throw error;
      }
    },

    /** The connection's services as last synced, listed ones first (they survive restarts and an unreachable aggregator). */
    catalogue: (connectionId: number) => reference.catalogue(connectionId),

    /** When the `what` of a source was last synced completely, or null. */
    syncedAt: (source: string, what: string) => reference.syncedAt(source, what),

    /** A removed connection takes everything copied from it along. */
    forget: (source: string, connectionId: number) => reference.forgetSource(source, connectionId),
  };
}

export type AggregatorLists = ReturnType<typeof createAggregatorLists>;

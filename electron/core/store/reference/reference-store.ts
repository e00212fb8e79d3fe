import type { CityRecord, Point, PointSearch, PointSearchPage, ProviderService, Tariff } from '../../../../shared/schemas/lists';
import type { BoundCondition } from '../../lists/filter';

/**
 * The reference aggregate: pickup points, tariffs and additional services of every delivery service (the
 * shipped datasets, what connected carriers answer, an aggregator's copied lists), when each was last synced,
 * an aggregator's service catalogue, and the office each company usually brings a service's parcels to.
 * Filters name the wire fields of the lists (lists/list-fields.ts); where those live is the store's business.
 */

export interface Page {
  limit: number;
  offset: number;
}

/** One shipped (or generated) dataset's records. */
export interface Dataset {
  points: Point[];
  tariffs: Tariff[];
  services: ProviderService[];
}

/** A bound `filter=` of a list, by wire field (lists/filter.ts). */
export type ListFilter = BoundCondition[];

/** A stored dataset's version, as its loader recorded it. */
export interface StoredDataset {
  version: string;
  points: number;
}

/** How a sync of one kind of list (`what`) of one source went, as last recorded. */
export interface SyncRecord {
  /** When the last complete sync ended (epoch ms); kept from before when this attempt failed. */
  syncedAt?: number;
  attemptedAt: number;
  total?: number;
  error: string | null;
}

/** A delivery service an aggregator connection offers, as its service list last said. */
export interface CatalogueEntry {
  remoteKey: string;
  name: string;
  description: string;
  test: boolean;
  capabilities: unknown;
}

export interface ReferenceStore {
  // --- points --------------------------------------------------------------------------------

  /** One page of the points matching a `/lists/points` filter, by id. */
  pointPage(filter: ListFilter, page: Page): Promise<Point[]>;
  countPoints(filter: ListFilter): Promise<number>;
  /**
   * Changes whenever any point may have changed (a count or page kept by a caller is then stale): at once for
   * this store's own writes (every points writer below counts), and for anyone else's (another connection,
   * another instance on PostgreSQL) once the engine's version is read again — on SQLite every call, on
   * PostgreSQL at most every `POSTGRES_POINTS_VERSION_TRUST_MS`, or on the next call after `pointsChanged`.
   */
  pointsVersion(): Promise<string>;
  /** Someone else changed points (the hook for a cross-instance notice, e.g. LISTEN/NOTIFY): the next `pointsVersion` asks the database. */
  pointsChanged(): void;
  /** Hears this store's own writes of points, each once it ended (what other instances are told of, see events.ts). */
  onPointsWritten(listener: () => void): () => void;
  /** The service's point by our id (a closed one too, `enabled: 0`); null when the service has no such point. */
  findPoint(providerKey: string, id: number): Promise<Point | null>;
  /** The points of any service with these ids (closed ones too), unordered: a label's pickup point by its order's pointOutId. */
  findPoints(ids: number[]): Promise<Point[]>;
  /** Whether there are any points of the service. */
  hasPoints(providerKey: string): Promise<boolean>;
  /** Whether the service has an open point in the city (or in a settlement of that name within a city); any letter case, ё = е. */
  hasPointIn(providerKey: string, city: string): Promise<boolean>;
  /** The order screen's picker: matching points, nearest first when a spot is given, else by id. */
  searchPoints(q: PointSearch & Page): Promise<PointSearchPage>;
  /** Cities with open points, most points first; `search` matches the start of the name. */
  cities(q: { search?: string; providerKey?: string; limit: number }): Promise<CityRecord[]>;

  // --- tariffs and additional services -------------------------------------------------------

  tariffPage(filter: ListFilter, page: Page): Promise<{ rows: Tariff[]; total: number }>;
  /** Every tariff, or one service's, by id. */
  tariffs(providerKey?: string): Promise<Tariff[]>;
  /** The service's tariff by id; kept in memory until tariffs are written here or `tariffsChanged` says they were elsewhere. */
  findTariff(providerKey: string, id: number): Promise<Tariff | null>;
  /** Someone else wrote tariffs (another instance on PostgreSQL, told through events.ts): the next `findTariff` asks the database. */
  tariffsChanged(): void;
  /** Hears this store's own writes of tariffs, each once it ended (what other instances are told of, see events.ts). */
  onTariffsWritten(listener: () => void): () => void;
  /** The tariffs of any service with these ids, unordered (a label's tariff name by its order's tariffId). */
  findTariffs(ids: number[]): Promise<Tariff[]>;
  hasTariffs(providerKey: string): Promise<boolean>;
  /** Additional services matching a `/lists/services` filter, by service and their order in the data. */
  services(filter?: ListFilter): Promise<ProviderService[]>;
  /** One service's additional services, in their order. */
  servicesOf(providerKey: string): Promise<ProviderService[]>;

  // --- shipped datasets ----------------------------------------------------------------------

  storedDataset(dataset: string): Promise<StoredDataset | null>;
  /**
   * Replaces the dataset's rows and records `version`, all or nothing; false (nothing done) when that
   * version is already in (a second app starting on the same data got there first).
   */
  loadDataset(dataset: string, version: string, data: Dataset, now: number): Promise<boolean>;
  /** Replaces the dataset's rows, leaving its recorded version (benchmarks load generated data so). */
  replaceDataset(dataset: string, data: Dataset): Promise<void>;

  // --- what carriers answer, by `source` -----------------------------------------------------

  /** A source's tariffs replaced by these; an id another source already uses is left to it. */
  replaceTariffs(source: string, tariffs: Tariff[]): Promise<void>;
  /** A source's additional services replaced by these; a name the service already has from another source is left to it. */
  replaceServices(source: string, services: ProviderService[]): Promise<void>;
  /** The ids a source's points have by the service's own code, and the highest point id of any source. */
  pointIds(source: string): Promise<{ byCode: Map<string, number>; highest: number }>;
  /** Writes points (new ids inserted, known ones replaced), all or nothing. */
  putPoints(source: string, points: Point[]): Promise<void>;
  /** Closes the source's open points other than `kept` (kept, so old orders still resolve); how many. */
  closePointsExcept(source: string, kept: ReadonlySet<number>): Promise<number>;
  /** When `what` of the source was last synced completely (epoch ms), or null. */
  syncedAt(source: string, what: string): Promise<number | null>;
  recordSync(source: string, what: string, record: SyncRecord): Promise<void>;
  /** Everything a source brought (points, tariffs, services, sync records, an aggregator connection's catalogue), at once. */
  forgetSource(source: string, catalogueOf?: number): Promise<void>;

  // --- an aggregator connection's catalogue --------------------------------------------------

  /** The connection's services as its list says now (in its order); ones it no longer lists are kept, unlisted. */
  putCatalogue(connectionId: number, entries: CatalogueEntry[], now: number): Promise<void>;
  /** The connection's stored services, listed ones first in the list's order. */
  catalogue(connectionId: number): Promise<(CatalogueEntry & { listed: boolean })[]>;

  // --- a company's usual drop-off office per service -----------------------------------------

  usualDropOff(companyId: number, providerKey: string): Promise<number | null>;
  rememberDropOff(companyId: number, providerKey: string, pointId: number, now: number): Promise<void>;
}

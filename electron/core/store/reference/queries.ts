import { sql, type Expression, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import type { Point, PointSearch, ProviderService, Tariff, Worktime } from '../../../../shared/schemas/lists';
import { fold, type BoundCondition } from '../../lists/filter';
import { sortedSizes } from '../../lists/point-checks';
import type { Db } from '../database';
import { chunked } from '../orders/chunked';
import { filterSql, type SqlFilterField, type TextSql } from '../filter-sql';
import type { PointsTable, ProviderServicesTable, TariffsTable } from '../schema';
import type { Dataset, ListFilter, Page, ReferenceStore, StoredDataset } from './reference-store';

type PointRow = Selectable<PointsTable>;

/** The columns a point record is made of (not the dataset and search helpers: less to read per row). */
const recordColumns = [
  'id', 'provider_key', 'code', 'name', 'post_index', 'lat', 'lng', 'country_code', 'region', 'city', 'community', 'street_type', 'street', 'house',
  'block', 'office', 'address', 'description', 'phone', 'timetable', 'worktime', 'fitting_room', 'cod', 'payment_cash', 'payment_card',
  'available_operation', 'type', 'max_size_a', 'max_size_b', 'max_size_c', 'max_size_sum', 'min_weight', 'max_weight', 'max_cod', 'enabled',
] as const satisfies readonly (keyof PointRow)[];
type RecordRow = Pick<PointRow, (typeof recordColumns)[number]>;

/** Where each filterable wire field lives (lists/list-fields.ts names them). */
type Columns = Record<string, Pick<SqlFilterField, 'column' | 'folded'>>;

const pointColumns: Columns = {
  id: { column: 'id' }, providerKey: { column: 'provider_key' }, code: { column: 'code' }, name: { column: 'name' },
  postIndex: { column: 'post_index' }, lat: { column: 'lat' }, lng: { column: 'lng' }, countryCode: { column: 'country_code' },
  region: { column: 'region' },
  // Folded copies, so an index serves `=` on the names people type in any case and with е for ё.
  city: { column: ['city_fold', 'community_fold'], folded: true },
  community: { column: 'community_fold', folded: true },
  streetType: { column: 'street_type' }, street: { column: 'street' }, house: { column: 'house' }, block: { column: 'block' },
  office: { column: 'office' }, address: { column: 'address' }, phone: { column: 'phone' }, timetable: { column: 'timetable' },
  fittingRoom: { column: 'fitting_room' }, cod: { column: 'cod' }, paymentCash: { column: 'payment_cash' }, paymentCard: { column: 'payment_card' },
  availableOperation: { column: 'available_operation' }, type: { column: 'type' }, enabled: { column: 'enabled' },
  'limits.maxSizeA': { column: 'max_size_a' }, 'limits.maxSizeB': { column: 'max_size_b' }, 'limits.maxSizeC': { column: 'max_size_c' },
  'limits.maxSizeSum': { column: 'max_size_sum' }, 'limits.minWeight': { column: 'min_weight' }, 'limits.maxWeight': { column: 'max_weight' },
  'limits.maxCod': { column: 'max_cod' },
};

const tariffColumns: Columns = {
  id: { column: 'id' }, providerKey: { column: 'provider_key' }, name: { column: 'name' }, description: { column: 'description' },
  aliasName: { column: 'alias_name' }, weightMin: { column: 'weight_min' }, weightMax: { column: 'weight_max' },
  pickupType: { column: 'pickup_type' }, deliveryType: { column: 'delivery_type' }, paymentCash: { column: 'payment_cash' },
};

const serviceColumns: Columns = {
  providerKey: { column: 'provider_key' }, name: { column: 'name' }, extraParamName: { column: 'extra_param_name' },
  valueType: { column: 'value_type' }, description: { column: 'description' },
};

/** A wire-field filter on a table's columns; a field the table does not have is a caller's mistake. */
function onColumns(filter: ListFilter, columns: Columns): BoundCondition<SqlFilterField>[] {
  return filter.map((c) => {
    const where = Object.hasOwn(columns, c.field) ? columns[c.field] : undefined;
    if (!where) throw new Error(`the reference store cannot filter by ${c.field}`);
    return { ...c, spec: { ...c.spec, ...where } };
  });
}

const flagOf = (v: number | null) => (v === null ? null : v ? 1 : 0);

function pointFromRow(r: RecordRow): Point {
  return {
    id: r.id,
    providerKey: r.provider_key,
    code: r.code,
    name: r.name,
    postIndex: r.post_index,
    lat: r.lat,
    lng: r.lng,
    countryCode: r.country_code,
    region: r.region,
    city: r.city,
    community: r.community,
    streetType: r.street_type,
    street: r.street,
    house: r.house,
    block: r.block,
    office: r.office,
    address: r.address,
    description: r.description,
    phone: r.phone,
    timetable: r.timetable,
    worktime: JSON.parse(r.worktime) as Worktime,
    fittingRoom: flagOf(r.fitting_room),
    cod: flagOf(r.cod),
    paymentCash: flagOf(r.payment_cash),
    paymentCard: flagOf(r.payment_card),
    availableOperation: r.available_operation as Point['availableOperation'],
    type: r.type as Point['type'],
    limits: {
      maxSizeA: r.max_size_a,
      maxSizeB: r.max_size_b,
      maxSizeC: r.max_size_c,
      maxSizeSum: r.max_size_sum,
      minWeight: r.min_weight,
      maxWeight: r.max_weight,
      maxCod: r.max_cod === null ? null : r.max_cod / 100,
    },
    enabled: r.enabled ? 1 : 0,
  };
}

/** A point's row, with the folded search columns. */
function pointToRow(source: string, p: Point): PointRow {
  return {
    id: p.id,
    source,
    provider_key: p.providerKey,
    code: p.code,
    name: p.name,
    post_index: p.postIndex,
    lat: p.lat,
    lng: p.lng,
    country_code: p.countryCode,
    region: p.region,
    city: p.city,
    community: p.community,
    street_type: p.streetType ?? null,
    street: p.street,
    house: p.house,
    block: p.block,
    office: p.office,
    address: p.address,
    description: p.description ?? null,
    phone: p.phone,
    timetable: p.timetable,
    worktime: JSON.stringify(p.worktime),
    fitting_room: p.fittingRoom,
    cod: p.cod,
    payment_cash: p.paymentCash,
    payment_card: p.paymentCard,
    available_operation: p.availableOperation,
    type: p.type,
    max_size_a: p.limits.maxSizeA,
    max_size_b: p.limits.maxSizeB,
    max_size_c: p.limits.maxSizeC,
    max_size_sum: p.limits.maxSizeSum,
    min_weight: p.limits.minWeight,
    max_weight: p.limits.maxWeight,
    max_cod: p.limits.maxCod === null ? null : Math.round(p.limits.maxCod * 100),
    enabled: p.enabled,
    city_fold: fold(p.city),
    community_fold: p.community === null ? null : fold(p.community),
    search_text: fold([p.name, p.address, p.code, p.postIndex, p.phone, p.community].filter(Boolean).join(' ')),
  };
}

function tariffFromRow(r: Selectable<TariffsTable>): Tariff {
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

const tariffToRow = (source: string, t: Tariff): Selectable<TariffsTable> => ({
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

const serviceFromRow = (r: Selectable<ProviderServicesTable>): ProviderService => ({
  providerKey: r.provider_key,
  name: r.name,
  extraParamName: r.extra_param_name,
  valueType: r.value_type as ProviderService['valueType'],
  description: r.description,
});

const serviceToRow = (source: string, s: ProviderService, position: number): Selectable<ProviderServicesTable> => ({
  provider_key: s.providerKey,
  extra_param_name: s.extraParamName,
  source,
  position,
  name: s.name,
  value_type: s.valueType,
  description: s.description,
});

/** Table rows ready to insert: column names and the values of each row in that order. */
interface TableRows {
  columns: string[];
  values: unknown[][];
}
export type PreparedDataset = Record<'points' | 'tariffs' | 'provider_services', TableRows>;

function tableRows(rows: Record<string, unknown>[]): TableRows {
  const columns = rows.length ? Object.keys(rows[0]) : [];
  return { columns, values: rows.map((row) => columns.map((c) => row[c])) };
}

/**
 * Rows of the datasets already derived (folded city, search text), by dataset object: the tests start many
 * apps in one process on the same shipped data (lists/reference-data.ts reads it once), and each then only inserts.
 */
const preparedRows = new WeakMap<Dataset, { source: string; rows: PreparedDataset }>();

function prepareDataset(source: string, data: Dataset): PreparedDataset {
  const known = preparedRows.get(data);
  if (known?.source === source) return known.rows;
  const rows = {
    points: tableRows(data.points.map((p) => pointToRow(source, p))),
    tariffs: tableRows(data.tariffs.map((t) => tariffToRow(source, t))),
    provider_services: tableRows(data.services.map((s, i) => serviceToRow(source, s, i))),
  };
  preparedRows.set(data, { source, rows });
  return rows;
}

/**
 * The points of a filter whose one field is kept in several columns (a point's city or community), once per
 * column; null when there is no such field (or more than one).
 */
function perColumn(filter: BoundCondition<SqlFilterField>[]): BoundCondition<SqlFilterField>[][] | null {
  const many = filter.filter((c) => Array.isArray(c.spec.column) && c.spec.column.length > 1);
  if (many.length !== 1) return null;
  const [split] = many;
  return (split.spec.column as string[]).map((column) => filter.map((c) => (c === split ? { ...c, spec: { ...c.spec, column } } : c)));
}

/** Conditions of the order screen's point picker (command `lists.points`). */
function searchConditions(q: PointSearch, engine: ReferenceEngine): Expression<SqlBool>[] {
  const where: Expression<SqlBool>[] = [];
  if (!q.includeDisabled) where.push(sql<SqlBool>`enabled = 1`);
  if (q.providerKey) where.push(sql<SqlBool>`provider_key = ${q.providerKey}`);
  if (q.city) {
    const c = fold(q.city);
    where.push(sql<SqlBool>`(city_fold = ${c} OR community_fold = ${c})`);
  }
  for (const word of fold(q.search ?? '').split(/\s+/).filter(Boolean)) where.push(engine.searchHas(word));
  if (q.cod !== undefined) where.push(q.cod ? sql<SqlBool>`cod = 1` : sql<SqlBool>`(cod = 0 OR cod IS NULL)`);
  if (q.fittingRoom !== undefined) where.push(q.fittingRoom ? sql<SqlBool>`fitting_room = 1` : sql<SqlBool>`(fitting_room = 0 OR fitting_room IS NULL)`);
  if (q.types?.length) where.push(sql<SqlBool>`type IN (${sql.join(q.types)})`);
  if (q.operation === 'issue') where.push(sql<SqlBool>`available_operation IN (2, 3)`);
  if (q.operation === 'acceptance') where.push(sql<SqlBool>`available_operation IN (1, 3)`);
  const p = q.parcel;
  if (p) {
    // The same rules as pointRefusals: a missing limit is no limit.
    if (p.weight !== undefined) {
      where.push(sql<SqlBool>`(max_weight IS NULL OR max_weight >= ${p.weight})`, sql<SqlBool>`(min_weight IS NULL OR min_weight <= ${p.weight})`);
    }
    if (p.length !== undefined || p.width !== undefined || p.height !== undefined) {
      const [a, b, c] = sortedSizes(p);
      where.push(
        sql<SqlBool>`(max_size_a IS NULL OR max_size_a >= ${a})`,
        sql<SqlBool>`(max_size_b IS NULL OR max_size_b >= ${b})`,
        sql<SqlBool>`(max_size_c IS NULL OR max_size_c >= ${c})`,
        sql<SqlBool>`(max_size_sum IS NULL OR max_size_sum >= ${a + b + c})`,
      );
    }
    if (p.codCost !== undefined && p.codCost > 0) {
      where.push(sql<SqlBool>`cod = 1`, sql<SqlBool>`(max_cod IS NULL OR max_cod >= ${Math.round(p.codCost * 100)})`);
    }
  }
  return where;
}

/** What each engine does its own way; the rest of the reference store is the same Kysely on both. */
export interface ReferenceEngine {
  /** How filters fold and search text. */
  text: TextSql;
  /** The picker's search: the folded search text holds the (folded) word. */
  searchHas(word: string): RawBuilder<SqlBool>;
  /**
   * What the database says of the points' version: changes when anyone (another connection, another
   * instance) changed points; what this store wrote itself it counts on its own.
   */
  pointsVersion(): Promise<string>;
  /** How long a read of `pointsVersion` is trusted (0: read on every call; it costs a round trip on PostgreSQL). */
  pointsVersionTrustMs: number;
  storedDataset(dataset: string): Promise<StoredDataset | null>;
  /** Replaces the dataset's rows and records the version, all or nothing; false when that version is in already. */
  loadDataset(dataset: string, version: string, rows: PreparedDataset, now: number): Promise<boolean>;
  replaceDataset(dataset: string, rows: PreparedDataset): Promise<void>;
}

/** Rows per multi-row INSERT: a point is ~40 values, and SQLite takes 32,766 per statement (PostgreSQL 65,535). */
const POINTS_PER_INSERT = 250;

/** A kind of rows (points, tariffs) whose readers are told when a write of them ends: `ended` forgets and tells the listeners. */
interface WrittenKind {
  starting(): void;
  ended(): void;
  listen(listener: () => void): () => void;
}

function writtenKind(forget: () => void, starting: () => void = () => {}): WrittenKind {
  const listeners = new Set<() => void>();
  return {
    starting,
    ended() {
      forget();
      for (const listener of listeners) listener();
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The reference store over Kysely, the engine's own parts given by `engine`. */
export function createReferenceStore(db: Db, engine: ReferenceEngine, now: () => number = () => performance.now()): ReferenceStore {
  // The points' version: this store's own writes, counted when each ends (done or failed), so whoever caches
  // what points look like sees them on the next read; and the engine's, for writes by anyone else, read at
  // most every `pointsVersionTrustMs` (or at once after `pointsChanged`).
  let ownWrites = 0;
  let engineVersion: { version: string; readAt: number } | null = null;
  const points = writtenKind(() => {
    ownWrites += 1;
    engineVersion = null;
  });

  // Tariffs by service and id, as every created order's check asks (bench create: a query per POST /orders, a round
  // trip on PostgreSQL). Forgotten when any write of tariffs here ends (done or failed), and when another instance says
  // it wrote some (tariffsChanged); an answer read while a write ran is not kept (the generation moved on).
  const tariffCache = new Map<string, Tariff>();
  let tariffGeneration = 0;
  const forgetTariffs = () => {
    tariffGeneration += 1;
    tariffCache.clear();
  };
  const tariffs = writtenKind(forgetTariffs, () => (tariffGeneration += 1));

  /**
   * Runs a write of the given kinds of rows; when it ends each kind's readers are told (caches forget, listeners hear),
   * unless it says it changed nothing (`changed` false of its result: a dataset whose version is in already).
   */
  const writing = async <T>(kinds: WrittenKind[], write: () => Promise<T>, changed: (result: T) => boolean = () => true): Promise<T> => {
    for (const kind of kinds) kind.starting();
    let result: T;
    try {
      result = await write();
    } catch (error) {
      for (const kind of kinds) kind.ended();
      throw error;
    }
    if (changed(result)) for (const kind of kinds) kind.ended();
    return result;
  };
  const dataset = [points, tariffs];
  const wrote = (loaded: boolean) => loaded;

  return {
    async pointPage(filter, page) {
      const bound = onColumns(filter, pointColumns);
      const branches = perColumn(bound);
      // `city=…` is an OR of two columns, which SQLite cannot read in id order from its indexes; with
      // `providerKey=…` it walked the service's points in id order until a page matched (bench points: 6 ms
      // for Saint Petersburg, 100,000 points). Asked once per column instead, each branch an index walk
      // (points_city, points_community) already in id order that stops after offset + limit rows; the page
      // is among the union of those (1 ms).
      const where = branches
        ? sql<SqlBool>`id IN (${sql.join(
            branches.map((b) => sql`SELECT id FROM (SELECT id FROM points WHERE ${filterSql(b, engine.text)} ORDER BY id LIMIT ${page.offset + page.limit}) AS branch`),
            sql` UNION `,
          )})`
        : filterSql(bound, engine.text);
      const rows = await db.selectFrom('points').select(recordColumns).where(where).orderBy('id').limit(page.limit).offset(page.offset).execute();
      return rows.map(pointFromRow);
    },

    async countPoints(filter) {
      const where = filterSql(onColumns(filter, pointColumns), engine.text);
      const row = await db.selectFrom('points').select((eb) => eb.fn.countAll<number>().as('n')).where(where).executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async pointsVersion() {
      const at = now();
      if (!engineVersion || at - engineVersion.readAt >= engine.pointsVersionTrustMs) {
        engineVersion = { version: await engine.pointsVersion(), readAt: at };
      }
      return `${ownWrites}:${engineVersion.version}`;
    },

    pointsChanged() {
      engineVersion = null;
    },

    onPointsWritten(listener) {
      return points.listen(listener);
    },

    async findPoint(providerKey, id) {
      if (!Number.isSafeInteger(id)) return null;
      const row = await db.selectFrom('points').select(recordColumns).where('id', '=', id).where('provider_key', '=', providerKey).executeTakeFirst();
      return row ? pointFromRow(row) : null;
    },

    async findPoints(ids) {
      const found: Point[] = [];
      for (const part of chunked(ids.filter(Number.isSafeInteger))) {
        const rows = await db.selectFrom('points').select(recordColumns).where('id', 'in', part).execute();
        found.push(...rows.map(pointFromRow));
      }
      return found;
    },

    async hasPoints(providerKey) {
      return (await db.selectFrom('points').select('id').where('provider_key', '=', providerKey).limit(1).executeTakeFirst()) !== undefined;
    },

    async hasPointIn(providerKey, city) {
      const c = fold(city.trim());
      const row = await db
        .selectFrom('points')
        .select('id')
        .where('provider_key', '=', providerKey)
        .where('enabled', '=', 1)
        .where((eb) => eb.or([eb('city_fold', '=', c), eb('community_fold', '=', c)]))
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    async searchPoints(q) {
      const where = searchConditions(q, engine);
      const all = where.length ? sql<SqlBool>`${sql.join(where, sql` AND `)}` : sql<SqlBool>`1 = 1`;
      let rows = db.selectFrom('points').select(recordColumns).where(all);
      if (q.near) {
        // Equirectangular distance: exact enough to sort points within a city.
        const k = Math.cos((q.near.lat * Math.PI) / 180);
        rows = rows.orderBy(sql`((lat - ${q.near.lat}) * (lat - ${q.near.lat}) + (lng - ${q.near.lng}) * (lng - ${q.near.lng}) * ${k * k})`);
      }
      const [found, count] = await Promise.all([
        rows.orderBy('id').limit(q.limit).offset(q.offset).execute(),
        db.selectFrom('points').select((eb) => eb.fn.countAll<number>().as('n')).where(all).executeTakeFirstOrThrow(),
      ]);
      return { rows: found.map(pointFromRow), total: Number(count.n) };
    },

    async cities(q) {
      let query = db
        .selectFrom('points')
        .select(['city', 'region', (eb) => eb.fn.countAll<number>().as('points')])
        .where('enabled', '=', 1);
      if (q.providerKey) query = query.where('provider_key', '=', q.providerKey);
      if (q.search) {
        // A range on the folded name: the city index serves it.
        const prefix = fold(q.search);
        query = query.where('city_fold', '>=', prefix).where('city_fold', '<', `${prefix}\uffff`);
      }
      const rows = await query.groupBy(['city', 'region']).orderBy('points', 'desc').orderBy('city').limit(q.limit).execute();
      return rows.map((r) => ({ city: r.city, region: r.region, points: Number(r.points) }));
    },

    async tariffPage(filter: ListFilter, page: Page) {
      const where = filterSql(onColumns(filter, tariffColumns), engine.text);
      const [rows, count] = await Promise.all([
        db.selectFrom('tariffs').selectAll().where(where).orderBy('id').limit(page.limit).offset(page.offset).execute(),
        db.selectFrom('tariffs').select((eb) => eb.fn.countAll<number>().as('n')).where(where).executeTakeFirstOrThrow(),
      ]);
      return { rows: rows.map(tariffFromRow), total: Number(count.n) };
    },

    async tariffs(providerKey) {
      let query = db.selectFrom('tariffs').selectAll();
      if (providerKey) query = query.where('provider_key', '=', providerKey);
      return (await query.orderBy('id').execute()).map(tariffFromRow);
    },

    async findTariff(providerKey, id) {
      if (!Number.isSafeInteger(id)) return null;
      const key = `${id}:${providerKey}`;
      const kept = tariffCache.get(key);
      if (kept) return { ...kept };
      const generation = tariffGeneration;
      const row = await db.selectFrom('tariffs').selectAll().where('id', '=', id).where('provider_key', '=', providerKey).executeTakeFirst();
      const found = row ? tariffFromRow(row) : null;
      // Only tariffs that exist are kept: the ids come from callers, and each unknown one would stay until a tariff write.
      if (found && generation === tariffGeneration) tariffCache.set(key, { ...found });
      return found;
    },

    tariffsChanged: forgetTariffs,

    onTariffsWritten(listener) {
      return tariffs.listen(listener);
    },

    async findTariffs(ids) {
      const found: Tariff[] = [];
      for (const part of chunked(ids.filter(Number.isSafeInteger))) found.push(...(await db.selectFrom('tariffs').selectAll().where('id', 'in', part).execute()).map(tariffFromRow));
      return found;
    },

    async hasTariffs(providerKey) {
      return (await db.selectFrom('tariffs').select('id').where('provider_key', '=', providerKey).limit(1).executeTakeFirst()) !== undefined;
    },

    async services(filter = []) {
      const where = filterSql(onColumns(filter, serviceColumns), engine.text);
      const rows = await db.selectFrom('provider_services').selectAll().where(where).orderBy('provider_key').orderBy('position').execute();
      return rows.map(serviceFromRow);
    },

    async servicesOf(providerKey) {
      const rows = await db.selectFrom('provider_services').selectAll().where('provider_key', '=', providerKey).orderBy('position').execute();
      return rows.map(serviceFromRow);
    },

    storedDataset: (dataset) => engine.storedDataset(dataset),
    loadDataset: (name, version, data, at) => writing(dataset, () => engine.loadDataset(name, version, prepareDataset(name, data), at), wrote),
    replaceDataset: (name, data) => writing(dataset, () => engine.replaceDataset(name, prepareDataset(name, data))),

    async replaceTariffs(source, given) {
      await writing([tariffs], () => db.transaction().execute(async (trx) => {
        await trx.deleteFrom('tariffs').where('source', '=', source).execute();
        for (const t of given) {
          await trx.insertInto('tariffs').values(tariffToRow(source, t)).onConflict((oc) => oc.column('id').doNothing()).execute();
        }
      }));
    },

    async replaceServices(source, services) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('provider_services').where('source', '=', source).execute();
        for (const [position, s] of services.entries()) {
          await trx
            .insertInto('provider_services')
            .values(serviceToRow(source, s, position))
            .onConflict((oc) => oc.columns(['provider_key', 'extra_param_name']).doNothing())
            .execute();
        }
      });
    },

    async pointIds(source) {
      const rows = await db.selectFrom('points').select(['id', 'code']).where('source', '=', source).execute();
      const { top } = await db.selectFrom('points').select((eb) => eb.fn.max('id').as('top')).executeTakeFirstOrThrow();
      return { byCode: new Map(rows.map((r) => [r.code, r.id])), highest: Number(top ?? 0) };
    },

    async putPoints(source, given) {
      if (given.length === 0) return;
      const rows = given.map((p) => pointToRow(source, p));
      const columns = Object.keys(rows[0]).filter((c) => c !== 'id') as (keyof PointRow)[];
      await writing([points], () =>
        db.transaction().execute(async (trx) => {
          for (let i = 0; i < rows.length; i += POINTS_PER_INSERT) {
            await trx
              .insertInto('points')
              .values(rows.slice(i, i + POINTS_PER_INSERT))
              .onConflict((oc) => oc.column('id').doUpdateSet((eb) => Object.fromEntries(columns.map((c) => [c, eb.ref(`excluded.${c}`)]))))
              .execute();
          }
        }),
      );
    },

    closePointsExcept: (source, kept) =>
      writing([points], async () => {
        const open = await db.selectFrom('points').select('id').where('source', '=', source).where('enabled', '=', 1).execute();
        const gone = open.map((r) => r.id).filter((id) => !kept.has(id));
        let closed = 0;
        for (let i = 0; i < gone.length; i += 500) {
          const result = await db.updateTable('points').set({ enabled: 0 }).where('id', 'in', gone.slice(i, i + 500)).where('enabled', '=', 1).executeTakeFirst();
          closed += Number(result.numUpdatedRows);
        }
        return closed;
      }),

    async syncedAt(source, what) {
      const row = await db.selectFrom('provider_sync_state').select('synced_at').where('provider_key', '=', source).where('what', '=', what).executeTakeFirst();
      return row?.synced_at ?? null;
    },

    async recordSync(source, what, record) {
      const values = {
        ...(record.syncedAt !== undefined && { synced_at: record.syncedAt }),
        attempted_at: record.attemptedAt,
        ...(record.total !== undefined && { total: record.total }),
        last_error: record.error,
      };
      await db
        .insertInto('provider_sync_state')
        .values({ provider_key: source, what, synced_at: record.syncedAt ?? null, attempted_at: record.attemptedAt, total: record.total ?? null, last_error: record.error })
        .onConflict((oc) => oc.columns(['provider_key', 'what']).doUpdateSet(values))
        .execute();
    },

    async forgetSource(source, catalogueOf) {
      await writing(dataset, () => db.transaction().execute(async (trx) => {
        await trx.deleteFrom('points').where('source', '=', source).execute();
        await trx.deleteFrom('tariffs').where('source', '=', source).execute();
        await trx.deleteFrom('provider_services').where('source', '=', source).execute();
        await trx.deleteFrom('provider_sync_state').where('provider_key', '=', source).execute();
        if (catalogueOf !== undefined) await trx.deleteFrom('upstream_services').where('connection_id', '=', catalogueOf).execute();
      }));
    },

    async putCatalogue(connectionId, entries, now) {
      await db.transaction().execute(async (trx) => {
        for (const [position, e] of entries.entries()) {
          const values = { name: e.name, description: e.description, test: e.test ? 1 : 0, capabilities: JSON.stringify(e.capabilities), position, listed: 1, synced_at: now };
          await trx
            .insertInto('upstream_services')
            .values({ connection_id: connectionId, remote_key: e.remoteKey, ...values })
            .onConflict((oc) => oc.columns(['connection_id', 'remote_key']).doUpdateSet(values))
            .execute();
        }
        let gone = trx.updateTable('upstream_services').set({ listed: 0 }).where('connection_id', '=', connectionId);
        if (entries.length) gone = gone.where('remote_key', 'not in', entries.map((e) => e.remoteKey));
        await gone.execute();
      });
    },

    async catalogue(connectionId) {
      const rows = await db.selectFrom('upstream_services').selectAll().where('connection_id', '=', connectionId).orderBy('listed', 'desc').orderBy('position').execute();
      return rows.map((r) => ({
        remoteKey: r.remote_key,
        name: r.name,
        description: r.description,
        test: r.test === 1,
        capabilities: JSON.parse(r.capabilities) as unknown,
        listed: r.listed === 1,
      }));
    },

    async usualDropOff(companyId, providerKey) {
      const row = await db
        .selectFrom('usual_drop_off_points')
        .select('point_id')
        .where('company_id', '=', companyId)
        .where('provider_key', '=', providerKey)
        .executeTakeFirst();
      return row?.point_id ?? null;
    },

    async rememberDropOff(companyId, providerKey, pointId, now) {
      await db
        .insertInto('usual_drop_off_points')
        .values({ company_id: companyId, provider_key: providerKey, point_id: pointId, updated_at: now })
        .onConflict((oc) => oc.columns(['company_id', 'provider_key']).doUpdateSet({ point_id: pointId, updated_at: now }))
        .execute();
    },
  };
}

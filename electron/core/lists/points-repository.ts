import { sql, type Expression, type Selectable, type SqlBool } from 'kysely';
import type { Point, PointSearch, Worktime } from '../../../shared/schemas/lists';
import { pointSchema } from '../../../shared/schemas/lists';
import type { Db } from '../store/database';
import type { PointsTable } from '../store/schema';
import { fold, type BoundCondition } from './filter';
import { filterSql, type SqlFilterField } from './filter-sql';
import { sortedSizes } from './point-checks';

type PointRow = Selectable<PointsTable>;

/** The columns a wire record is made of (not the dataset and search helpers: less to read per row). */
const recordColumns = [
  'id', 'provider_key', 'code', 'name', 'post_index', 'lat', 'lng', 'country_code', 'region', 'city', 'community', 'street_type', 'street', 'house',
  'block', 'office', 'address', 'description', 'phone', 'timetable', 'worktime', 'fitting_room', 'cod', 'payment_cash', 'payment_card',
  'available_operation', 'type', 'max_size_a', 'max_size_b', 'max_size_c', 'max_size_sum', 'min_weight', 'max_weight', 'max_cod', 'enabled',
] as const satisfies readonly (keyof PointRow)[];
type RecordRow = Pick<PointRow, (typeof recordColumns)[number]>;

/** The fields of a point record, in wire order (for `fields=`). */
export const pointRecordFields = Object.keys(pointSchema.shape) as (keyof Point)[];

const text = (column: string): SqlFilterField => ({ type: 'text', column });
const key = (column: string): SqlFilterField => ({ type: 'key', column });
const int = (column: string): SqlFilterField => ({ type: 'int', column });
const real = (column: string): SqlFilterField => ({ type: 'real', column });
const flag = (column: string): SqlFilterField => ({ type: 'flag', column });

/** What `/lists/points?filter=` accepts. `city` also matches the community (a settlement or district in the city). */
export const pointFilterFields: Record<string, SqlFilterField> = {
  id: int('id'),
  providerKey: key('provider_key'),
  code: key('code'),
  name: text('name'),
  postIndex: key('post_index'),
  lat: real('lat'),
  lng: real('lng'),
  countryCode: key('country_code'),
  region: text('region'),
  city: { type: 'text', column: ['city_fold', 'community_fold'], folded: true },
  community: { type: 'text', column: 'community_fold', folded: true },
  streetType: text('street_type'),
  street: text('street'),
  house: text('house'),
  block: text('block'),
  office: text('office'),
  address: text('address'),
  phone: text('phone'),
  timetable: text('timetable'),
  fittingRoom: flag('fitting_room'),
  cod: flag('cod'),
  paymentCash: flag('payment_cash'),
  paymentCard: flag('payment_card'),
  availableOperation: int('available_operation'),
  type: int('type'),
  enabled: flag('enabled'),
  'limits.maxSizeA': real('max_size_a'),
  'limits.maxSizeB': real('max_size_b'),
  'limits.maxSizeC': real('max_size_c'),
  'limits.maxSizeSum': real('max_size_sum'),
  'limits.minWeight': int('min_weight'),
  'limits.maxWeight': int('max_weight'),
  'limits.maxCod': { type: 'real', column: 'max_cod', scale: 100 },
};

const flagOf = (v: number | null) => (v === null ? null : v ? 1 : 0);

/** A points row as the wire record. */
export function pointFromRow(r: RecordRow): Point {
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

/** The points row of a wire record (the loader's insert), with the folded search columns. */
export function pointToRow(source: string, p: Point): PointRow {
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

export interface Page {
  limit: number;
  offset: number;
}

/**
 * The filter once per column of its one field kept in several columns (a point's city or community),
 * or null when there is no such field (or more than one).
 */
function perColumn(filter: BoundCondition<SqlFilterField>[]): BoundCondition<SqlFilterField>[][] | null {
  const many = filter.filter((c) => Array.isArray(c.spec.column) && c.spec.column.length > 1);
  if (many.length !== 1) return null;
  const [split] = many;
  return (split.spec.column as string[]).map((column) => filter.map((c) => (c === split ? { ...c, spec: { ...c.spec, column } } : c)));
}

/**
 * One page of points matching a bound `/lists/points` filter, by id.
 *
 * `city=…` is an OR of two columns, which SQLite cannot read in id order from its indexes; with
 * `providerKey=…` it walked the service's points in id order until a page matched (bench points: 6 ms
 * for Saint Petersburg, 100,000 points). Asked once per column instead, each branch an index walk
 * (points_city, points_community) already in id order that stops after offset + limit rows; the page
 * is among the union of those (1 ms).
 */
export async function pointPage(db: Db, filter: BoundCondition<SqlFilterField>[], page: Page): Promise<Point[]> {
  const branches = perColumn(filter);
  const where = branches
    ? sql<SqlBool>`id IN (${sql.join(
        branches.map((b) => sql`SELECT id FROM (SELECT id FROM points WHERE ${filterSql(b)} ORDER BY id LIMIT ${page.offset + page.limit})`),
        sql` UNION `,
      )})`
    : filterSql(filter);
  const rows = await db.selectFrom('points').select(recordColumns).where(where).orderBy('id').limit(page.limit).offset(page.offset).execute();
  return rows.map(pointFromRow);
}

/** How many points match a bound filter. */
export async function countPoints(db: Db, filter: BoundCondition<SqlFilterField>[]): Promise<number> {
  const row = await db.selectFrom('points').select((eb) => eb.fn.countAll<number>().as('n')).where(filterSql(filter)).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One page of points matching a bound `/lists/points` filter, by id, with the matching total. */
export async function listPoints(db: Db, filter: BoundCondition<SqlFilterField>[], page: Page): Promise<{ rows: Point[]; total: number }> {
  const [rows, total] = await Promise.all([pointPage(db, filter, page), countPoints(db, filter)]);
  return { rows, total };
}

/**
 * The point `pointId` of the delivery service `providerKey`, with its limits; null when the service
 * has no such point (a point of another service is not found either). Disabled points are returned
 * with `enabled: 0`, so a check can say the point is closed rather than unknown.
 */
export async function findPoint(db: Db, providerKey: string, pointId: number): Promise<Point | null> {
  if (!Number.isSafeInteger(pointId)) return null;
  const row = await db.selectFrom('points').select(recordColumns).where('id', '=', pointId).where('provider_key', '=', providerKey).executeTakeFirst();
  return row ? pointFromRow(row) : null;
}

/** Whether the app has any points of the delivery service (if not, point checks are left to the service). */
export async function hasPoints(db: Db, providerKey: string): Promise<boolean> {
  const row = await db.selectFrom('points').select('id').where('provider_key', '=', providerKey).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Conditions of the order screen's point picker (command `lists.points`). */
function searchConditions(q: PointSearch): Expression<SqlBool>[] {
  const where: Expression<SqlBool>[] = [];
  if (!q.includeDisabled) where.push(sql<SqlBool>`enabled = 1`);
  if (q.providerKey) where.push(sql<SqlBool>`provider_key = ${q.providerKey}`);
  if (q.city) {
    const c = fold(q.city);
    where.push(sql<SqlBool>`(city_fold = ${c} OR community_fold = ${c})`);
  }
  for (const word of fold(q.search ?? '').split(/\s+/).filter(Boolean)) where.push(sql<SqlBool>`instr(search_text, ${word}) > 0`);
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

/** A page of the picker: points matching the search, nearest first when a spot is given, else by id. */
export async function searchPoints(db: Db, q: PointSearch & Page): Promise<{ rows: Point[]; total: number }> {
  const where = searchConditions(q);
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
}

/** Cities with enabled points, most points first; `search` matches the start of the city's name. */
export async function listCities(db: Db, q: { search?: string; providerKey?: string; limit: number }) {
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
}

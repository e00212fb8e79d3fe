import { z } from 'zod';
import type {
  CityRecord, Point, PointSearch, PointSearchPage, ProviderRecord, ProviderService, StatusRecord, Tariff, TypeRecord,
} from '../../../shared/schemas/lists';
import type { ProviderRegistry } from '../providers/registry';
import type { ListFilter, Page, ReferenceStore } from '../store/reference/reference-store';
import { parseInput } from '../validation';
import { parseFields, project } from './fields';
import { compileFilter, filterPredicate, type FilterField } from './filter';
import { createPageCache, type EncodedPage } from './page-cache';
import {
  pointFilterFields, pointRecordFields, serviceFilterFields, serviceRecordFields, tariffFilterFields, tariffRecordFields,
} from './list-fields';
import {
  deliveryTypes, operationTypes, paymentMethods, pickupTypes, pointTypes, providerFilterFields, providerRecord, providerRecordFields, statusFilterFields,
  statusRecordFields, statusRecords, typeFilterFields, typeRecordFields,
} from './static-lists';

/** What a list request of the interface carries (query parameters, as text). */
export interface ListRequest {
  limit?: string | number | null;
  offset?: string | number | null;
  filter?: string | null;
  fields?: string | null;
}

export interface Paged<T> {
  rows: Partial<T>[];
  meta: { total: number; offset: number; limit: number };
}

/** Page bounds of the paged lists; the interface leaves them to us (see the issue's decisions). */
export const pageLimits = { defaultLimit: 100, maxLimit: 1000 } as const;

const wholeNumber = (min: number, max: number) =>
  z.preprocess(
    (v) => (v === null || v === undefined || (typeof v === 'string' && v.trim() === '') ? undefined : typeof v === 'number' ? String(v) : v),
    z
      .string()
      .trim()
      .regex(/^\d+$/, 'must be a whole number')
      .transform(Number)
      .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
      .optional(),
  );

/** `limit` and `offset` of the paged lists, as text (the query) or already numbers. */
export const listPagingSchema = z.object({
  limit: wholeNumber(1, pageLimits.maxLimit),
  offset: wholeNumber(0, Number.MAX_SAFE_INTEGER),
});

/** limit 1..1000 (default 100), offset ≥ 0 (default 0); anything else is a 040002 naming the parameter. */
export function parsePaging(req: ListRequest): Page {
  const { limit, offset } = parseInput(listPagingSchema, { limit: req.limit ?? undefined, offset: req.offset ?? undefined });
  return { limit: limit ?? pageLimits.defaultLimit, offset: offset ?? 0 };
}

/** An in-memory list filtered, then paged. */
function pageOf<T extends object>(records: T[], fields: Record<string, FilterField>, req: ListRequest): { rows: T[]; total: number; page: Page } {
  const filter = compileFilter(req.filter, fields);
  const page = parsePaging(req);
  const matching = records.filter(filterPredicate(filter, (r: T, f) => (r as Record<string, unknown>)[f]));
  return { rows: matching.slice(page.offset, page.offset + page.limit), total: matching.length, page };
}

function bareList<T extends object>(records: T[], fields: Record<string, FilterField>, recordFields: readonly string[], req: ListRequest) {
  const wanted = parseFields(req.fields, recordFields);
  const filter = compileFilter(req.filter, fields);
  return project(records.filter(filterPredicate(filter, (r: T, f) => (r as Record<string, unknown>)[f])), wanted);
}

export interface ListsServiceDeps {
  reference: ReferenceStore;
  providers: ProviderRegistry;
  /** Bytes the encoded `/lists/points` pages kept may take together; default page-cache.ts's. */
  pointPageCacheBytes?: number;
}

/** A filter's conditions as one text: the same conditions, however the caller wrote them, give the same key. */
const filterKey = (filter: ListFilter) => JSON.stringify(filter.map((c) => [c.field, c.op, c.values]));

/** The reference lists: the interface's `/lists/*` operations and the order screen's picker commands. */
export function createListsService({ reference, providers, pointPageCacheBytes }: ListsServiceDeps) {
  // Totals of the points list by filter, so paging through a big city counts it once. Any change to the
  // points since (the store's version) starts a new generation: whoever changes points later — a
  // service's office sync, say — needs to do nothing about it.
  let counts = { generation: '', totals: new Map<string, number>() };
  async function pointTotal(filter: ListFilter, version: string): Promise<number> {
    if (counts.generation !== version) counts = { generation: version, totals: new Map() };
    const key = filterKey(filter);
    let total = counts.totals.get(key);
    if (total === undefined) {
      total = await reference.countPoints(filter);
      if (counts.totals.size >= 500) counts.totals.delete(counts.totals.keys().next().value as string);
      counts.totals.set(key, total);
    }
    return total;
  }

  /** Checks fields, filter and paging before any query, so a bad request costs nothing. */
  const prepare = <F extends FilterField>(req: ListRequest, filterFields: Record<string, F>, recordFields: readonly string[]) => ({
    fields: parseFields(req.fields, recordFields),
    filter: compileFilter(req.filter, filterFields),
    page: parsePaging(req),
  });

  /** One page of points; `version` is the points version the caller read (one read serves the totals and the page cache). */
  async function pointsOf({ fields, filter, page }: ReturnType<typeof prepare>, version: string): Promise<Paged<Point>> {
    const [rows, total] = await Promise.all([reference.pointPage(filter, page), pointTotal(filter, version)]);
    return { rows: project(rows, fields), meta: { total, offset: page.offset, limit: page.limit } };
  }

  // Encoded `/lists/points` pages. Points are the same for every company (a connected service's points are
  // everybody's reference data), so the key is what the caller asked, normalized, and the answer's form.
  const pointPages = createPageCache(pointPageCacheBytes);

  return {
    /** GET /lists/points */
    async points(req: ListRequest): Promise<Paged<Point>> {
      const asked = prepare(req, pointFilterFields, pointRecordFields);
      return pointsOf(asked, await reference.pointsVersion());
    },

    /**
     * GET /lists/points as it goes out: `encode` turns the page into `format`'s bytes (JSON, XML), which are
     * kept until points change. Bad input is refused before the cache is asked.
     */
    async encodedPoints(req: ListRequest, format: string, encode: (page: Paged<Point>) => EncodedPage): Promise<EncodedPage> {
      const asked = prepare(req, pointFilterFields, pointRecordFields);
      const key = JSON.stringify([format, filterKey(asked.filter), asked.fields, asked.page.limit, asked.page.offset]);
      const version = await reference.pointsVersion();
      return pointPages.get(version, key, async () => encode(await pointsOf(asked, version)));
    },

    /** How the kept points pages stand (pages, bytes, hits, misses). */
    pointPageCache: () => pointPages.stats(),

    /** GET /lists/tariffs */
    async tariffs(req: ListRequest): Promise<Paged<Tariff>> {
      const { fields, filter, page } = prepare(req, tariffFilterFields, tariffRecordFields);
      const { rows, total } = await reference.tariffPage(filter, page);
      return { rows: project(rows, fields), meta: { total, offset: page.offset, limit: page.limit } };
    },

    /** GET /lists/providers: the registry, so connected services appear beside the sandbox ones. */
    async providers(req: ListRequest): Promise<Paged<ProviderRecord>> {
      const fields = parseFields(req.fields, providerRecordFields);
      const { rows, total, page } = pageOf(providers.list().map(providerRecord), providerFilterFields, req);
      return { rows: project(rows, fields), meta: { total, offset: page.offset, limit: page.limit } };
    },

    /** GET /lists/statuses */
    async statuses(req: ListRequest): Promise<Paged<StatusRecord>> {
      const fields = parseFields(req.fields, statusRecordFields);
      const { rows, total, page } = pageOf(statusRecords, statusFilterFields, req);
      return { rows: project(rows, fields), meta: { total, offset: page.offset, limit: page.limit } };
    },

    /** GET /lists/services: a bare array. */
    async services(req: ListRequest): Promise<Partial<ProviderService>[]> {
      const fields = parseFields(req.fields, serviceRecordFields);
      return project(await reference.services(compileFilter(req.filter, serviceFilterFields)), fields);
    },

    pickupTypes: async (req: ListRequest): Promise<Partial<TypeRecord>[]> => bareList(pickupTypes, typeFilterFields, typeRecordFields, req),
    deliveryTypes: async (req: ListRequest): Promise<Partial<TypeRecord>[]> => bareList(deliveryTypes, typeFilterFields, typeRecordFields, req),
    paymentMethods: async (req: ListRequest): Promise<Partial<TypeRecord>[]> => bareList(paymentMethods, typeFilterFields, typeRecordFields, req),
    pointTypes: async (req: ListRequest): Promise<Partial<TypeRecord>[]> => bareList(pointTypes, typeFilterFields, typeRecordFields, req),
    operationTypes: async (req: ListRequest): Promise<Partial<TypeRecord>[]> => bareList(operationTypes, typeFilterFields, typeRecordFields, req),

    // --- Commands of the order screen --------------------------------------------------------

    /** lists.points: the pickup-point picker. */
    searchPoints: (q: PointSearch & Page): Promise<PointSearchPage> => reference.searchPoints(q),

    /** lists.point: one point of a service (the order screen shows the chosen one). */
    point: (q: { providerKey: string; id: number }): Promise<Point | null> => reference.findPoint(q.providerKey, q.id),

    /** lists.cities: the picker's city box. */
    cities: (q: { search?: string; providerKey?: string; limit: number }): Promise<CityRecord[]> => reference.cities(q),

    /** lists.tariffs: tariffs a screen may offer, optionally for one service, direction and weight. */
    async tariffList(q: { providerKey?: string; pickupType?: 1 | 2; deliveryType?: 1 | 2; weight?: number }): Promise<Tariff[]> {
      const all = await reference.tariffs(q.providerKey);
      return all.filter(
        (t) =>
          (q.pickupType === undefined || t.pickupType === null || t.pickupType === q.pickupType) &&
          (q.deliveryType === undefined || t.deliveryType === null || t.deliveryType === q.deliveryType) &&
          (q.weight === undefined || ((t.weightMin ?? 0) <= q.weight && (t.weightMax === null || q.weight <= t.weightMax))),
      );
    },

    /** lists.services: the additional services of one delivery service (or all). */
    serviceList: (q: { providerKey?: string }): Promise<ProviderService[]> => (q.providerKey ? reference.servicesOf(q.providerKey) : reference.services()),
  };
}

export type ListsService = ReturnType<typeof createListsService>;

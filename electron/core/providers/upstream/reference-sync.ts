import type { z } from 'zod';
import type { Point, ProviderService, Tariff } from '../../../../shared/schemas/lists';
import type { Clock } from '../../clock';
import { pointToRow } from '../../lists/points-repository';
import { serviceToRow, tariffToRow } from '../../lists/tariffs-repository';
import type { Db } from '../../store/database';
import { ProviderUnavailableError } from '../provider';
import type { UpstreamClient } from './client';
import { UpstreamApiError } from './errors';
import {
  pointFromRemote, serviceFromRemote, serviceRecordOf, tariffFromRemote, takesService, UPSTREAM_KIND, type UpstreamServiceRecord,
} from './mapping';
import { pagedSchema, pointSchema, providerSchema, serviceSchema, tariffSchema } from './wire';

/**
 * The upstream's reference lists copied into ours, so its services, tariffs, additional services and
 * pickup points are listed, searched and checked like any others (offline too): /v1/lists/* answers
 * them under our service keys and ids (mapping.ts). Each connection's rows carry `source` =
 * `upstream:<connection id>`, so a sync replaces exactly its own rows and a removed connection takes
 * them with it.
 */

export interface SyncDeps {
  client: UpstreamClient;
  db: Db;
  clock: Clock;
  connectionId: number;
  /** Rows asked per page (the interface's lists take up to 1000 at ShipDesk; an upstream may give fewer). */
  pageSize?: number;
}

export interface SyncResult {
  services: number;
  tariffs: number;
  additionalServices: number;
  points: number;
  /** Records the upstream sent that ShipDesk could not read or take over (not stored). */
  skipped: number;
}

/** The `source` of a connection's rows in the shared reference tables, and its provider_sync_state key. */
export const sourceOf = (connectionId: number) => `${UPSTREAM_KIND}:${connectionId}`;

const MAX_PAGES = 10_000;

function parsePage(value: unknown, what: string) {
  const parsed = pagedSchema.safeParse(value);
  if (!parsed.success) throw new ProviderUnavailableError(`the upstream answered ${what} without the list envelope { rows, meta }`);
  return parsed.data;
}

/** A list call the upstream refuses (its error body) leaves the lists as they are, like an outage. */
async function list(deps: SyncDeps, path: string, query?: Record<string, number>): Promise<unknown> {
  try {
    return await deps.client.call('GET', path, { query });
  } catch (error) {
    if (error instanceof UpstreamApiError) throw new ProviderUnavailableError(`the upstream refused GET ${path}: ${error.message}`);
    throw error;
  }
}

/** Reads every page of a paged list; stops on a short page, the total, or an upstream that ignores offset. */
async function eachPage(deps: SyncDeps, path: string, onPage: (rows: unknown[]) => Promise<void>): Promise<void> {
  const limit = deps.pageSize ?? 1000;
  let previousFirst = '';
  for (let offset = 0, pages = 0; pages < MAX_PAGES; pages++) {
    const page = parsePage(await list(deps, path, { limit, offset }), `GET ${path}`);
    const first = JSON.stringify(page.rows[0] ?? null);
    if (page.rows.length === 0 || (offset > 0 && first === previousFirst)) return;
    previousFirst = first;
    await onPage(page.rows);
    offset += page.rows.length;
    if (page.meta ? offset >= page.meta.total : page.rows.length < limit) return;
  }
}

function readAll<S extends z.ZodType, T>(rows: unknown[], schema: S, take: (record: z.output<S>) => T | null, counts: { skipped: number }): T[] {
  const out: T[] = [];
  for (const raw of rows) {
    const parsed = schema.safeParse(raw);
    const value = parsed.success ? take(parsed.data) : null;
    if (value === null) counts.skipped++;
    else out.push(value);
  }
  return out;
}

async function setState(db: Db, connectionId: number, what: string, values: { synced_at?: number; attempted_at: number; total?: number; last_error: string | null }) {
  await db
    .insertInto('provider_sync_state')
    .values({ provider_key: sourceOf(connectionId), what, synced_at: values.synced_at ?? null, attempted_at: values.attempted_at, total: values.total ?? null, last_error: values.last_error })
    .onConflict((oc) => oc.columns(['provider_key', 'what']).doUpdateSet(values))
    .execute();
}

/** When a connection's lists were last synced completely (epoch ms), or null. */
export async function syncedAt(db: Db, connectionId: number, what = 'all'): Promise<number | null> {
  const row = await db.selectFrom('provider_sync_state').select('synced_at').where('provider_key', '=', sourceOf(connectionId)).where('what', '=', what).executeTakeFirst();
  return row?.synced_at ?? null;
}

/** The upstream's delivery services (GET /v1/lists/providers) into upstream_services; ones it no longer lists are kept unlisted. */
export async function syncCatalogue(deps: SyncDeps, counts = { skipped: 0 }): Promise<UpstreamServiceRecord[]> {
  const { db, clock, connectionId } = deps;
  const records: UpstreamServiceRecord[] = [];
  await eachPage(deps, '/v1/lists/providers', async (rows) => {
    records.push(
      ...readAll(rows, providerSchema, (p) => (takesService(connectionId, p.key) && !records.some((r) => r.remoteKey === p.key) ? serviceRecordOf(p) : null), counts),
    );
  });
  const now = clock.now();
  await db.transaction().execute(async (trx) => {
    for (const [position, r] of records.entries()) {
      const values = { name: r.name, description: r.description, test: r.test ? 1 : 0, capabilities: JSON.stringify(r.capabilities), position, listed: 1, synced_at: now };
      await trx
        .insertInto('upstream_services')
        .values({ connection_id: connectionId, remote_key: r.remoteKey, ...values })
        .onConflict((oc) => oc.columns(['connection_id', 'remote_key']).doUpdateSet(values))
        .execute();
    }
    let gone = trx.updateTable('upstream_services').set({ listed: 0 }).where('connection_id', '=', connectionId);
    if (records.length) gone = gone.where('remote_key', 'not in', records.map((r) => r.remoteKey));
    await gone.execute();
  });
  await setState(db, connectionId, 'catalogue', { synced_at: now, attempted_at: now, total: records.length, last_error: null });
  return records;
}

/** The stored services of a connection, listed ones first in the upstream's order. */
export async function storedServices(db: Db, connectionId: number): Promise<(UpstreamServiceRecord & { listed: boolean })[]> {
  const rows = await db.selectFrom('upstream_services').selectAll().where('connection_id', '=', connectionId).orderBy('listed', 'desc').orderBy('position').execute();
  return rows.map((r) => ({
    remoteKey: r.remote_key,
    name: r.name,
    description: r.description,
    test: r.test === 1,
    capabilities: JSON.parse(r.capabilities),
    listed: r.listed === 1,
  }));
}

/** Tariffs (GET /v1/lists/tariffs) of the upstream's services, under our ids. */
export async function syncTariffs(deps: SyncDeps, keys: Set<string>, counts = { skipped: 0 }): Promise<number> {
  const { db, connectionId } = deps;
  const tariffs: Tariff[] = [];
  await eachPage(deps, '/v1/lists/tariffs', async (rows) => {
    tariffs.push(...readAll(rows, tariffSchema, (t) => (keys.has(t.providerKey) ? tariffFromRemote(connectionId, t) : null), counts));
  });
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('tariffs').where('source', '=', sourceOf(connectionId)).execute();
    for (const t of tariffs) {
      await trx.insertInto('tariffs').values(tariffToRow(sourceOf(connectionId), t)).onConflict((oc) => oc.column('id').doNothing()).execute();
    }
  });
  return tariffs.length;
}

/** Additional services (GET /v1/lists/services, a bare array) of the upstream's services. */
export async function syncAdditionalServices(deps: SyncDeps, keys: Set<string>, counts = { skipped: 0 }): Promise<number> {
  const { db, connectionId } = deps;
  const raw = await list(deps, '/v1/lists/services');
  if (!Array.isArray(raw)) throw new ProviderUnavailableError('the upstream answered GET /v1/lists/services with something other than a list');
  const services: ProviderService[] = readAll(raw, serviceSchema, (s) => (keys.has(s.providerKey) ? serviceFromRemote(connectionId, s) : null), counts);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('provider_services').where('source', '=', sourceOf(connectionId)).execute();
    for (const [position, s] of services.entries()) {
      await trx
        .insertInto('provider_services')
        .values(serviceToRow(sourceOf(connectionId), s, position))
        .onConflict((oc) => oc.columns(['provider_key', 'extra_param_name']).doNothing())
        .execute();
    }
  });
  return services.length;
}

/**
 * Pickup points (GET /v1/lists/points) page by page, each page one transaction; ids are computed, so a
 * point keeps its id across syncs. Only a complete pass disables the points the upstream no longer lists
 * (kept, so old orders still resolve).
 */
export async function syncPoints(deps: SyncDeps, keys: Set<string>, counts = { skipped: 0 }): Promise<number> {
  const { db, connectionId } = deps;
  const source = sourceOf(connectionId);
  const seen = new Set<number>();
  await eachPage(deps, '/v1/lists/points', async (rows) => {
    const points: Point[] = readAll(rows, pointSchema, (p) => (keys.has(p.providerKey) ? pointFromRemote(connectionId, p) : null), counts);
    if (points.length === 0) return;
    const pointRows = points.map((p) => pointToRow(source, p));
    const columns = Object.keys(pointRows[0]).filter((c) => c !== 'id') as (keyof (typeof pointRows)[number])[];
    await db.transaction().execute(async (trx) => {
      // Many rows per statement (a point is ~40 values; SQLite takes 32,766 per statement).
      for (let i = 0; i < pointRows.length; i += 250) {
        await trx
          .insertInto('points')
          .values(pointRows.slice(i, i + 250))
          .onConflict((oc) => oc.column('id').doUpdateSet((eb) => Object.fromEntries(columns.map((c) => [c, eb.ref(`excluded.${c}`)]))))
          .execute();
      }
    });
    for (const p of points) seen.add(p.id);
  });
  const known = await db.selectFrom('points').select('id').where('source', '=', source).where('enabled', '=', 1).execute();
  const gone = known.map((r) => r.id).filter((id) => !seen.has(id));
  for (let i = 0; i < gone.length; i += 500) await db.updateTable('points').set({ enabled: 0 }).where('id', 'in', gone.slice(i, i + 500)).execute();
  return seen.size;
}

/** Everything of a connection: services first (they decide which records are taken over), then their lists. */
export async function syncAll(deps: SyncDeps): Promise<SyncResult> {
  const counts = { skipped: 0 };
  const attempted = deps.clock.now();
  try {
    const records = await syncCatalogue(deps, counts);
    const keys = new Set(records.map((r) => r.remoteKey));
    const tariffs = await syncTariffs(deps, keys, counts);
    const additionalServices = await syncAdditionalServices(deps, keys, counts);
    const points = await syncPoints(deps, keys, counts);
    const now = deps.clock.now();
    await setState(deps.db, deps.connectionId, 'all', { synced_at: now, attempted_at: attempted, total: points, last_error: null });
    return { services: records.length, tariffs, additionalServices, points, skipped: counts.skipped };
  } catch (error) {
    await setState(deps.db, deps.connectionId, 'all', { attempted_at: attempted, last_error: error instanceof Error ? error.message : String(error) });
    throw error;
  }
}

/** A removed connection takes its copied lists with it (its services go with the connection row). */
export async function forgetConnection(db: Db, connectionId: number): Promise<void> {
  const source = sourceOf(connectionId);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('points').where('source', '=', source).execute();
    await trx.deleteFrom('tariffs').where('source', '=', source).execute();
    await trx.deleteFrom('provider_services').where('source', '=', source).execute();
    await trx.deleteFrom('provider_sync_state').where('provider_key', '=', source).execute();
    await trx.deleteFrom('upstream_services').where('connection_id', '=', connectionId).execute();
  });
}


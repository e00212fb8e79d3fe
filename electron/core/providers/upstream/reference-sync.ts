import type { z } from 'zod';
import type { AggregatorReferenceData } from '../../lists/aggregator-lists';
import { said } from '../../../../shared/messages';
import { ProviderUnavailableError } from '../provider';
import type { UpstreamClient } from './client';
import { UpstreamApiError } from './errors';
import { pointFromRemote, serviceFromRemote, serviceRecordOf, tariffFromRemote, takesService, UPSTREAM_KIND } from './mapping';
import { pagedSchema, pointSchema, providerSchema, serviceSchema, tariffSchema } from './wire';

/**
 * The upstream's reference lists, read and answered under our service keys and ids (mapping.ts), for lists/
 * to keep (lists/aggregator-lists.ts): its services, tariffs, additional services and pickup points are then
 * listed, searched and checked like any others, offline too. Each connection's records carry `source` =
 * `upstream:<connection id>`, so a sync replaces exactly its own and a removed connection takes them along.
 */

export interface ReadDeps {
  client: UpstreamClient;
  connectionId: number;
  /** Rows asked per page (the interface's lists take up to 1000 at ShipDesk; an upstream may give fewer). */
  pageSize?: number;
}

/** The `source` of a connection's rows in the shared reference tables, and its provider_sync_state key. */
export const sourceOf = (connectionId: number) => `${UPSTREAM_KIND}:${connectionId}`;

const MAX_PAGES = 10_000;

function parsePage(value: unknown, what: string) {
  const parsed = pagedSchema.safeParse(value);
  if (!parsed.success) throw new ProviderUnavailableError(said('provider.upstreamNoEnvelope', { what, envelope: '{ rows, meta }' }));
  return parsed.data;
}

/** A list call the upstream refuses (its error body) leaves the lists as they are, like an outage. */
async function list(deps: ReadDeps, path: string, query?: Record<string, number>): Promise<unknown> {
  try {
    return await deps.client.call('GET', path, { query });
  } catch (error) {
    if (error instanceof UpstreamApiError) throw new ProviderUnavailableError(said('provider.upstreamRefusedGet', { path, reason: error.message }));
    throw error;
  }
}

/** Every page of a paged list; stops on a short page, the total, or an upstream that ignores offset. */
async function* pages(deps: ReadDeps, path: string): AsyncGenerator<unknown[]> {
  const limit = deps.pageSize ?? 1000;
  let previousFirst = '';
  for (let offset = 0, read = 0; read < MAX_PAGES; read++) {
    const page = parsePage(await list(deps, path, { limit, offset }), `GET ${path}`);
    const first = JSON.stringify(page.rows[0] ?? null);
    if (page.rows.length === 0 || (offset > 0 && first === previousFirst)) return;
    previousFirst = first;
    yield page.rows;
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

/** A connection's reference data, read from the upstream when asked (GET /v1/lists/*). */
export function upstreamReference(deps: ReadDeps): AggregatorReferenceData {
  const { connectionId } = deps;
  const counts = { skipped: 0 };
  return {
    source: sourceOf(connectionId),
    connectionId,
    counts,

    /** Its delivery services (GET /v1/lists/providers), the first of each key; those it cannot take over are skipped. */
    async catalogue() {
      const records: ReturnType<typeof serviceRecordOf>[] = [];
      for await (const rows of pages(deps, '/v1/lists/providers')) {
        records.push(...readAll(rows, providerSchema, (p) => (takesService(connectionId, p.key) && !records.some((r) => r.remoteKey === p.key) ? serviceRecordOf(p) : null), counts));
      }
      return records;
    },

    /** Tariffs (GET /v1/lists/tariffs) of its services, under our ids. */
    async tariffs(keys) {
      const tariffs = [];
      for await (const rows of pages(deps, '/v1/lists/tariffs')) {
        tariffs.push(...readAll(rows, tariffSchema, (t) => (keys.has(t.providerKey) ? tariffFromRemote(connectionId, t) : null), counts));
      }
      return tariffs;
    },

    /** Additional services (GET /v1/lists/services, a bare array) of its services. */
    async services(keys) {
      const raw = await list(deps, '/v1/lists/services');
      if (!Array.isArray(raw)) throw new ProviderUnavailableError('the upstream answered GET /v1/lists/services with something other than a list');
      return readAll(raw, serviceSchema, (s) => (keys.has(s.providerKey) ? serviceFromRemote(connectionId, s) : null), counts);
    },

    /** Pickup points (GET /v1/lists/points) of its services, page by page; ids are computed, so a point keeps its id. */
    async *points(keys) {
      for await (const rows of pages(deps, '/v1/lists/points')) {
        const points = readAll(rows, pointSchema, (p) => (keys.has(p.providerKey) ? pointFromRemote(connectionId, p) : null), counts);
        if (points.length) yield points;
      }
    },
  };
}

import type { ProviderInfo } from '../../../../shared/contract/providers';
import type { Clock } from '../../clock';
import type { Logger } from '../../logger';
import { CATALOGUE, EVERYTHING, type AggregatorLists, type AggregatorSyncResult } from '../../lists/aggregator-lists';
import type { RunExclusive } from '../carrier-kind';
import { ProviderRejectedError, ProviderUnavailableError, type Carrier } from '../provider';
import { createUpstreamClient } from './client';
import { localKey, parseLocalKey, upstreamInfo, type UpstreamServiceRecord } from './mapping';
import { sourceOf, upstreamReference } from './reference-sync';
import { createUpstreamAccount, type UpstreamAccount, type UpstreamTuning } from './upstream-provider';
import { fixedOrText, said, type MessageRef } from '../../../../shared/messages';
import { checkFailure } from '../connections/check-failure';

/** A stored upstream connection, its token decrypted (null with the reason when it cannot be). */
export interface UpstreamConnectionRow {
  id: number;
  name: string;
  baseUrl: string | null;
  token: string | null;
  /** Why the connection cannot be used (its token cannot be decrypted here, no address…). */
  problem?: string | null;
}

interface Entry {
  row: UpstreamConnectionRow;
  account: UpstreamAccount | null;
  problem: string | null;
  /** Our service key → the service. Unlisted ones (the upstream stopped offering them) still serve old orders. */
  services: Map<string, { listed: boolean; provider: Carrier }>;
}

const HOUR = 60 * 60 * 1000;
/** The whole lists (points included) are refreshed daily, the service list hourly. */
export const LISTS_MAX_AGE_MS = 24 * HOUR;
export const CATALOGUE_MAX_AGE_MS = HOUR;

/**
 * The shop's upstream aggregator connections: one account (client, tracking memory) per connection,
 * and a Carrier per service the upstream offers, known from its last synced list (so they
 * survive restarts and an unreachable upstream). Changing a connection rebuilds it at once.
 */
export function createUpstreamConnections(deps: { lists: AggregatorLists; clock: Clock; log: Logger; exclusive?: RunExclusive; tuning?: UpstreamTuning }) {
  const { lists, clock, log } = deps;
  const now = () => clock.now();
  const tuning = deps.tuning ?? {};
  let entries = new Map<number, Entry>();
  let listed: Carrier[] = [];
  const running = new Map<number, Promise<AggregatorSyncResult>>();
  const background = new Set<Promise<unknown>>();
  let timer: NodeJS.Timeout | null = null;

  function buildAccount(row: UpstreamConnectionRow): { account: UpstreamAccount | null; problem: string | null } {
    const problem = row.problem ?? (!row.baseUrl ? 'no address is stored' : !row.token ? 'no token is stored' : null);
    if (problem) return { account: null, problem };
    const client = createUpstreamClient({ baseUrl: row.baseUrl!, token: row.token!, fetch: tuning.fetch, timeoutMs: tuning.timeoutMs, log: log.child({ service: `upstream:${row.id}` }), onCall: tuning.onCall });
    return { account: createUpstreamAccount({ connectionId: row.id, client, tuning }), problem: null };
  }

  /** Why a connection's orders wait: the connection named, its problem by key where it is ours. */
  const connectionWaiting = (entry: Entry) =>
    new ProviderUnavailableError(said('provider.upstreamConnectionWaiting', { name: entry.row.name, id: entry.row.id, reason: fixedOrText(entry.problem ?? '') }));

  /** A service of a connection that cannot be used now: its orders wait (retried) until it is fixed. */
  function waiting(entry: Entry, info: () => ProviderInfo): Carrier {
    const fail = async (): Promise<never> => {
      throw connectionWaiting(entry);
    };
    return { get info() { return info(); }, check: async () => [], register: fail, find: fail, update: fail, cancel: fail, remove: fail, track: fail };
  }

  async function refreshServices(entry: Entry): Promise<void> {
    const records = await lists.catalogue(entry.row.id);
    const services = new Map<string, { listed: boolean; provider: Carrier }>();
    for (const record of records) {
      const key = localKey(entry.row.id, record.remoteKey);
      const snapshot = record as UpstreamServiceRecord;
      const info = upstreamInfo(entry.row, snapshot);
      const provider = entry.account ? entry.account.service(record.remoteKey, () => info) : waiting(entry, () => info);
      services.set(key, { listed: record.listed, provider });
    }
    entry.services = services;
    listed = [...entries.values()].flatMap((e) => [...e.services.values()].filter((s) => s.listed).map((s) => s.provider));
  }

  const entryOf = (connectionId: number): Entry => {
    const entry = entries.get(connectionId);
    if (!entry) throw new ProviderRejectedError(said('provider.noUpstreamConnection', { id: connectionId }));
    return entry;
  };

  /** The connection's reference data as the upstream answers it now, for lists/ to keep. */
  const referenceOf = (entry: Entry) => {
    if (!entry.account) throw connectionWaiting(entry);
    return upstreamReference({ client: entry.account.client, connectionId: entry.row.id, pageSize: tuning.pageSize });
  };

  /** The services, tariffs and additional services (small); points are left to the full sync. */
  async function syncLists(connectionId: number): Promise<number> {
    const entry = entryOf(connectionId);
    const records = await lists.syncLists(referenceOf(entry), now);
    await refreshServices(entry);
    return records.length;
  }

  /** Everything, points included; a sync already under way for the connection is shared. */
  function sync(connectionId: number): Promise<AggregatorSyncResult> {
    const under = running.get(connectionId);
    if (under) return under;
    const entry = entryOf(connectionId);
    const work = lists
      .syncAll(referenceOf(entry), now)
      .then(async (result) => {
        await refreshServices(entry);
        log.info(`upstream "${entry.row.name}": ${result.services} services, ${result.tariffs} tariffs, ${result.points} points synced`);
        return result;
      })
      .finally(() => running.delete(connectionId));
    running.set(connectionId, work);
    return work;
  }

  const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

  function inBackground(what: string, work: () => Promise<unknown>) {
    const p = work()
      .catch((error) => log.warn(`upstream: ${what} failed: ${messageOf(error)}`))
      .finally(() => background.delete(p));
    background.add(p);
  }

  /**
   * Keeps the lists fresh: the service list hourly, everything daily; in one instance at a time among those on the
   * database (its syncs finish under the claim, so another instance checking next finds them fresh). The others, and
   * this one when nothing was stale, read the service lists again as stored: another instance may have synced them.
   */
  async function refreshStale(): Promise<void> {
    const exclusive: RunExclusive = deps.exclusive ?? (async (_name, work) => (await work(), true));
    await exclusive('upstream-refresh', async () => {
      const syncs: Promise<unknown>[] = [];
      for (const entry of entries.values()) {
        if (!entry.account) continue;
        const stale = await staleOf(entry.row.id);
        const what = stale === 'all' ? `sync of "${entry.row.name}"` : `service list of "${entry.row.name}"`;
        if (stale) syncs.push((stale === 'all' ? sync(entry.row.id) : syncLists(entry.row.id)).catch((error) => log.warn(`upstream: ${what} failed: ${messageOf(error)}`)));
        else await refreshServices(entry);
      }
      await Promise.all(syncs);
    }).then(async (ran) => {
      if (!ran) for (const entry of entries.values()) await refreshServices(entry);
    });
  }

  /** What of the connection's copied lists is too old: everything (daily), the service list (hourly), or nothing. */
  async function staleOf(connectionId: number): Promise<'all' | 'catalogue' | null> {
    const all = await lists.syncedAt(sourceOf(connectionId), EVERYTHING);
    if (all === null || clock.now() - all >= LISTS_MAX_AGE_MS) return 'all';
    const catalogue = await lists.syncedAt(sourceOf(connectionId), CATALOGUE);
    return catalogue === null || clock.now() - catalogue >= CATALOGUE_MAX_AGE_MS ? 'catalogue' : null;
  }

  function provider(key: string): Carrier | undefined {
    const parsed = parseLocalKey(key);
    return parsed ? entries.get(parsed.connectionId)?.services.get(key)?.provider : undefined;
  }

  return {
    /** Rebuilds the connections from their stored rows (after any change); accounts whose address and token did not change are kept. */
    async load(rows: UpstreamConnectionRow[]): Promise<void> {
      const next = new Map<number, Entry>();
      for (const row of rows) {
        const old = entries.get(row.id);
        const same = old && old.row.baseUrl === row.baseUrl && old.row.token === row.token && (old.row.problem ?? null) === (row.problem ?? null);
        const built = same ? { account: old.account, problem: old.problem } : buildAccount(row);
        next.set(row.id, { row, ...built, services: new Map() });
      }
      entries = next;
      listed = [];
      for (const entry of entries.values()) await refreshServices(entry);
    },

    /** The upstream services /lists/providers shows (listed ones of every connection). */
    providers: (): Carrier[] => listed,

    /** Any upstream service by key, unlisted ones too (orders made before the upstream stopped offering it). */
    provider,

    sync,
    syncLists,

    /** After a connection was created or changed: its service list now (errors logged), the rest in the background when running. */
    async afterSave(connectionId: number): Promise<void> {
      // A connection is saved whatever the upstream says now: its services appear once it answers.
      await syncLists(connectionId).catch((error) => log.warn(`upstream: service list of connection ${connectionId} not synced: ${error instanceof Error ? error.message : String(error)}`));
      if (timer) inBackground(`sync of connection ${connectionId}`, () => sync(connectionId));
    },

    /** "Test connection": the upstream's service list with the token (and it is stored). */
    async test(connectionId: number): Promise<{ ok: boolean; message: string } & Partial<MessageRef>> {
      const entry = entries.get(connectionId);
      if (!entry) return { ok: false, ...said('provider.noUpstreamConnection', { id: connectionId }) };
      if (!entry.account) return { ok: false, ...said('conn.problem', { name: entry.row.name, reason: fixedOrText(entry.problem ?? '') }) };
      try {
        const count = await syncLists(connectionId);
        const names = [...entry.services.values()].filter((s) => s.listed).map((s) => s.provider.info.key);
        const url = entry.account.client.baseUrl;
        return { ok: true, ...(names.length ? said('conn.connectedUpstreamNamed', { url, count, names: names.join(', ') }) : said('conn.connectedUpstream', { url, count })) };
      } catch (error) {
        return { ok: false, ...checkFailure(error) };
      }
    },

    /** A removed connection: its copied lists go too. */
    async forget(connectionId: number): Promise<void> {
      await running.get(connectionId)?.catch(() => {});
      await lists.forget(sourceOf(connectionId), connectionId);
    },

    /** Checks hourly what is stale and refreshes it. */
    start(intervalMs = HOUR): void {
      if (timer) return;
      const kick = () => inBackground('refresh', refreshStale);
      timer = setInterval(kick, intervalMs);
      timer.unref();
      kick();
    },

    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await Promise.allSettled([...background, ...running.values()]);
    },
  };
}

export type UpstreamConnections = ReturnType<typeof createUpstreamConnections>;

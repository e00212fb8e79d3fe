import type { z } from 'zod';
import type { Connection, ConnectionKindInfo, ConnectionTestResult } from '../../../../shared/contract/connections';
import type { connectionCreateSchema, connectionUpdateSchema } from '../../../../shared/contract/connections';
import { formatTimestamp } from '../../../../shared/time';
import type { Clock } from '../../clock';
import { notFound, validationError } from '../../errors';
import { createStoredReference, storeCarrierTariffs, syncCarrierPointsIfStale } from '../../lists/carrier-reference';
import type { Logger } from '../../logger';
import type { ConnectionsStore, StoredConnection } from '../../store/connections/connections-store';
import type { InstancesStore } from '../../store/instances/instances-store';
import type { ReferenceStore } from '../../store/reference/reference-store';
import { createAggregatorLists } from '../../lists/aggregator-lists';
import { isAggregator, type Aggregator, type CarrierConnection, type CarrierDeps, type CarrierKind, type ServiceKind } from '../carrier-kind';
import { carrierKinds } from '../kinds';
import { ProviderUnavailableError, type Carrier } from '../provider';
import { createConnectionRouter, type ConnectedAdapter } from './connection-router';
import { connectionProblems, effectiveSecrets, kindInfo, pickSecrets, mergeSettings, pickSettings } from './connection-fields';
import type { SecretBox } from './secret-box';
import { fixedOrText, said } from '../../../../shared/messages';
import { checkFailure } from './check-failure';
import type { ServiceLimit } from '../../outbox/lanes';

export interface ConnectionsDeps {
  store: ConnectionsStore;
  /** Where the services' reference data is kept (lists/ stores what carriers answer). */
  reference: ReferenceStore;
  clock: Clock;
  log: Logger;
  secretBox: SecretBox;
  /** The kinds of service the shop can connect; default the app's table (providers/kinds.ts). */
  kinds?: readonly CarrierKind[];
  /** Each kind's transport knobs by its key (tests: a fake's fetch, short waits). */
  tuning?: Record<string, unknown>;
  /** The points refresh runs in one instance at a time among those on the database. */
  instances: Pick<InstancesStore, 'tryRunExclusive'>;
}

type Row = StoredConnection;
type CreateInput = z.output<typeof connectionCreateSchema>;
type UpdateInput = z.output<typeof connectionUpdateSchema>;

/** A stored connection opened: secrets decrypted when this computer can, settings parsed. */
interface Opened {
  connection: CarrierConnection;
  /** False when the stored secrets cannot be decrypted here. */
  readable: boolean;
}

interface ServiceEntry {
  kind: ServiceKind;
  adapters: (ConnectedAdapter & { testMode: boolean; live: boolean })[];
  router: Carrier;
}

const POINTS_CHECK_MS = 60 * 60 * 1000;
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The shop's accounts with delivery services (several per service, each a providerConnectId), their
 * encrypted secrets, and the carriers built from them by each kind of the table (providers/kinds.ts).
 * Connections belong to the shop (the desktop install), not to one API company. Changing a connection
 * rebuilds its carrier at once. Nothing here knows a kind by name.
 */
export function createProviderConnections(deps: ConnectionsDeps) {
  const { store, reference, clock, log, secretBox } = deps;
  const kinds = deps.kinds ?? carrierKinds;
  const kindByKey = new Map(kinds.map((k) => [k.key, k]));
  const carrierDeps = (kind: CarrierKind): CarrierDeps => ({ clock, log, reference: createStoredReference(reference), tuning: deps.tuning?.[kind.key] });
  const sleepOf = (kind: CarrierKind) => (deps.tuning?.[kind.key] as { sleep?: (ms: number) => Promise<void> } | undefined)?.sleep;

  const services = new Map<string, ServiceEntry>();
  /** The service's one key in front of its accounts; shown as in test mode when every account is. */
  const routerOf = (kind: ServiceKind, adapters: ServiceEntry['adapters']) =>
    createConnectionRouter(kind.key, () => kind.info(adapters.length > 0 && adapters.every((a) => a.testMode)), adapters);
  const aggregators = new Map<string, Aggregator>();
  for (const kind of kinds) {
    if (isAggregator(kind)) aggregators.set(kind.key, kind.aggregator({ ...carrierDeps(kind), lists: createAggregatorLists(reference), exclusive: (name, work) => deps.instances.tryRunExclusive(name, work) }));
    else {
      services.set(kind.key, { kind, adapters: [], router: routerOf(kind, []) });
    }
  }
  let timer: NodeJS.Timeout | null = null;
  let refreshing: Promise<void> | null = null;
  /** Each connection's "parallel calls" setting, as of the last reload (see commonConnectionFields). */
  let parallelCalls = new Map<number, number>();

  function open(row: Row): Opened {
    const base = { id: row.id, name: row.name, testMode: row.testMode, baseUrl: row.baseUrl, settings: row.settings };
    if (!row.credentials) return { connection: { ...base, secrets: {} }, readable: true };
    try {
      return { connection: { ...base, secrets: JSON.parse(secretBox.decrypt(row.credentials)) as Record<string, string> }, readable: true };
    } catch {
      return { connection: { ...base, secrets: {} }, readable: false };
    }
  }

  /** Why a stored connection cannot be used now, or null. */
  function problemOf(kind: CarrierKind, opened: Opened): string | null {
    if (!opened.readable) return 'its secrets cannot be decrypted on this computer; enter them again';
    if (kind.baseUrl === 'required' && !opened.connection.baseUrl) return 'no address is stored';
    if (!effectiveSecrets(kind, opened.connection)) return 'no credentials are stored';
    return null;
  }

  /** A connection that cannot be used now: its orders wait (retried) until the owner fixes it. */
  function waiting(kind: ServiceKind, connection: CarrierConnection, reason: string): Carrier {
    const fail = async (): Promise<never> => {
      throw new ProviderUnavailableError(said('provider.connectionWaiting', { name: connection.name, id: connection.id, reason: fixedOrText(reason) }));
    };
    const info = kind.info(connection.testMode);
    // It keeps the operations the service has, so an order's cancel or change waits for the account too.
    return {
      info, check: async () => [], register: fail, find: fail, track: fail,
      ...(info.capabilities.update && { update: fail }), ...(info.capabilities.cancel && { cancel: fail }),
    };
  }

  /** The account's carrier: its own secrets, or the service's public test account in test mode. */
  function carrierOf(kind: ServiceKind, opened: Opened): { carrier: Carrier; live: boolean; problem: string | null; connection: CarrierConnection } {
    const problem = problemOf(kind, opened);
    const connection = { ...opened.connection, secrets: effectiveSecrets(kind, opened.connection) ?? {} };
    if (problem) return { carrier: waiting(kind, opened.connection, problem), live: false, problem, connection };
    return { carrier: kind.create(connection, carrierDeps(kind)), live: true, problem: null, connection };
  }

  const rows = (): Promise<Row[]> => store.list();

  async function reload(): Promise<void> {
    const all = await rows();
    parallelCalls = new Map(
      all.flatMap((r) => {
        const value = open(r).connection.settings.parallelCalls;
        return typeof value === 'number' ? [[r.id, Math.max(1, Math.floor(value))] as const] : [];
      }),
    );
    for (const entry of services.values()) {
      entry.adapters = all
        .filter((r) => r.providerKey === entry.kind.key)
        .map((r) => {
          const { carrier, live } = carrierOf(entry.kind, open(r));
          return { connectionId: r.id, testMode: r.testMode, provider: carrier, live };
        });
      entry.router = routerOf(entry.kind, entry.adapters);
      // lists/ keeps the service's tariffs while it is connected.
      const tariffs = entry.adapters.find((a) => a.live)?.provider.referenceData?.tariffs?.() ?? [];
      await storeCarrierTariffs(reference, entry.kind.key, tariffs);
    }
    for (const [key, aggregator] of aggregators) {
      const kind = kindByKey.get(key)!;
      await aggregator.load(
        all.filter((r) => r.providerKey === key).map((r) => {
          const opened = open(r);
          return { ...opened.connection, problem: opened.readable ? null : problemOf(kind, opened) };
        }),
      );
    }
  }

  function toConnection(row: Row, defaultId: number | undefined): Connection {
    const kind = kindByKey.get(row.providerKey);
    const { connection, readable } = open(row);
    const hintField = kind?.fields.find((f) => f.hint)?.name;
    const hinted = hintField ? connection.secrets[hintField] ?? connection.settings[hintField] : undefined;
    return {
      id: row.id,
      providerKey: row.providerKey,
      name: row.name,
      testMode: row.testMode,
      baseUrl: row.baseUrl,
      // The last characters of a long value only: a short one would be given away.
      clientIdHint: typeof hinted === 'string' && hinted.length >= 8 ? `…${hinted.slice(-4)}` : null,
      credentialsStored: row.credentials !== null,
      credentialsReadable: readable,
      isDefault: row.id === defaultId,
      settings: connection.settings,
      created: formatTimestamp(row.createdAt),
      updated: formatTimestamp(row.updatedAt),
    };
  }

  async function rowOf(id: number): Promise<Row> {
    const row = await store.get(id);
    if (!row) throw notFound(said('notFound.connection', { id }));
    return row;
  }

  async function describe(id: number): Promise<Connection> {
    const row = await rowOf(id);
    return toConnection(row, (await store.defaultOf(row.providerKey)) ?? undefined);
  }

  function kindOf(key: string): CarrierKind {
    const kind = kindByKey.get(key);
    if (!kind) throw validationError([{ field: 'providerKey', message: `must be one of: ${kinds.map((k) => k.key).join(', ')}` }]);
    return kind;
  }

  const seal = (secrets: Record<string, string>) => (Object.keys(secrets).length ? secretBox.encrypt(JSON.stringify(secrets)) : null);

  /** Told after a connection was created, changed or deleted (see onChanged). */
  const changedListeners = new Set<() => void>();

  /**
   * One refresh at a time in the background, once the worker has started (a new or changed connection's points are
   * loaded at once, not an hour later), and in one instance at a time among those on the database: another one
   * refreshing now brings the same points (what is fresh is not fetched again).
   */
  function kickRefresh(): void {
    if (!timer) return;
    refreshing ??= deps.instances
      .tryRunExclusive('points-refresh', refreshPoints)
      .then(() => undefined, (error) => log.warn(`points refresh failed: ${message(error)}`))
      .finally(() => {
      refreshing = null;
    });
  }

  /** Keeps each connected service's points fresh: a production account is preferred, its data being the real one. */
  async function refreshPoints(): Promise<void> {
    for (const entry of services.values()) {
      const live = entry.adapters.filter((a) => a.live);
      const points = (live.find((a) => !a.testMode) ?? live[0])?.provider.referenceData?.points;
      if (!points) continue;
      try {
        const result = await syncCarrierPointsIfStale({ reference, clock, sleep: sleepOf(entry.kind) }, points);
        if (result) log.info(`${entry.kind.key}: ${result.total} points synced in ${result.pages} pages (${result.disabled} closed)`);
      } catch (error) {
        log.warn(`${entry.kind.key}: points refresh failed: ${message(error)}`);
      }
    }
  }

  return {
    /** Connection-backed services for the registry: a service once it has a connection, an aggregator's services once listed. */
    providers: (): Carrier[] => [
      ...[...services.values()].filter((e) => e.adapters.length > 0).map((e) => e.router),
      ...[...aggregators.values()].flatMap((a) => a.carriers()),
    ],
    /** Any connection-backed service by key, including services an aggregator no longer lists (their old orders). */
    provider: (key: string): Carrier | undefined => {
      for (const aggregator of aggregators.values()) {
        const found = aggregator.carrier(key);
        if (found) return found;
      }
      return undefined;
    },
    reload,

    /**
     * The outbox's lane of an order's service: the connection it goes through (its own, the service's
     * default, or the one an aggregator's service key names: `<kind>:<connection id>:<its key>`), with that
     * connection's parallel calls; undefined for a service without connections (the sandbox).
     */
    laneOf(providerKey: string, providerConnectId: number | null): ServiceLimit | undefined {
      const service = services.get(providerKey);
      const [kindKey, id] = providerKey.split(':');
      const connectionId = service
        ? (providerConnectId ?? service.adapters[0]?.connectionId)
        : aggregators.has(kindKey) && /^\d+$/.test(id ?? '') ? Number(id) : undefined;
      if (connectionId === undefined) return undefined;
      return { lane: `connection:${connectionId}`, parallelCalls: parallelCalls.get(connectionId) };
    },

    /** The kinds the settings form offers, with the settings each needs. */
    kinds: (): ConnectionKindInfo[] => kinds.map(kindInfo),

    /** An aggregator connection's lists now: its service list, tariffs and additional services (points too when `all`). */
    async sync(connectionId: number, what: 'lists' | 'all' = 'all'): Promise<unknown> {
      const row = await rowOf(connectionId);
      const aggregator = aggregators.get(row.providerKey);
      if (!aggregator) throw validationError([{ field: 'id', message: `connection ${connectionId} brings no service list of its own` }]);
      return what === 'all' ? aggregator.sync(connectionId) : aggregator.syncLists(connectionId);
    },

    async list(): Promise<Connection[]> {
      const all = await rows();
      const defaults = new Map<string, number>();
      for (const r of all) if (!defaults.has(r.providerKey)) defaults.set(r.providerKey, r.id);
      return all.map((r) => toConnection(r, defaults.get(r.providerKey)));
    },

    async create(input: CreateInput): Promise<Connection> {
      const kind = kindOf(input.providerKey);
      const secrets = pickSecrets(kind, input.credentials ?? {});
      const settings = pickSettings(kind, input.settings ?? {});
      const problems = connectionProblems(kind, { testMode: input.testMode, baseUrl: input.baseUrl ?? null, secrets, settings, credentials: input.credentials, rawSettings: input.settings });
      if (problems.length) throw validationError(problems);
      const id = await store.create(kind.key, { name: input.name, testMode: input.testMode, baseUrl: input.baseUrl ?? null, credentials: seal(secrets), settings }, clock.now());
      await reload();
      await aggregators.get(kind.key)?.saved(id);
      kickRefresh();
      for (const listener of changedListeners) listener();
      return describe(id);
    },

    async update(input: UpdateInput): Promise<Connection> {
      const row = await rowOf(input.id);
      const kind = kindOf(row.providerKey);
      const stored = open(row);
      const testMode = input.testMode ?? row.testMode;
      const baseUrl = input.baseUrl === undefined ? row.baseUrl : input.baseUrl;
      // New secrets replace the stored ones; null forgets them; absent keeps them (whether or not this computer can read them).
      const secrets = input.credentials === undefined ? stored.connection.secrets : input.credentials === null ? {} : pickSecrets(kind, input.credentials);
      const settings = mergeSettings(kind, stored.connection.settings, input.settings ?? {});
      const keepsUnreadable = input.credentials === undefined && !stored.readable;
      const problems = connectionProblems(kind, {
        testMode, baseUrl, secrets, settings, credentials: input.credentials, rawSettings: input.settings, secretsKept: keepsUnreadable,
      });
      if (problems.length) throw validationError(problems);
      await store.update(
        row.id,
        { name: input.name ?? row.name, testMode, baseUrl, credentials: input.credentials === undefined ? row.credentials : seal(secrets), settings },
        clock.now(),
      );
      await reload();
      await aggregators.get(kind.key)?.saved(row.id);
      kickRefresh();
      for (const listener of changedListeners) listener();
      return describe(row.id);
    },

    async delete(input: { id: number }): Promise<{ id: number; deleted: string }> {
      const row = await rowOf(input.id);
      await store.delete(input.id);
      await reload();
      await aggregators.get(row.providerKey)?.forget(row.id);
      for (const listener of changedListeners) listener();
      return { id: input.id, deleted: formatTimestamp(clock.now()) };
    },

    /** Signs in with the connection as stored (a fresh token) and makes one cheap call; never throws for a failed check. */
    async test(input: { id: number }): Promise<ConnectionTestResult> {
      const row = await rowOf(input.id);
      const checkedAt = formatTimestamp(clock.now());
      const aggregator = aggregators.get(row.providerKey);
      if (aggregator) return { ...(await aggregator.test(row.id)), checkedAt, tokenExpiresIn: null };
      const entry = services.get(row.providerKey);
      if (!entry) return { ok: false, ...said('conn.unknownService', { name: row.providerKey }), checkedAt, tokenExpiresIn: null };
      const { carrier, problem, connection } = carrierOf(entry.kind, open(row));
      if (problem) return { ok: false, ...said('conn.problem', { name: row.name, reason: fixedOrText(problem) }), checkedAt, tokenExpiresIn: null };
      try {
        return { ok: true, ...(await entry.kind.test(carrier, connection)), checkedAt };
      } catch (error) {
        return { ok: false, ...checkFailure(error), checkedAt, tokenExpiresIn: null };
      }
    },

    refreshPoints,

    /**
     * Hears of every connection created, changed or deleted here, once the change is in use (a login refused before
     * may be fixed now; other instances on the database load the connections again).
     */
    onChanged(listener: () => void): () => void {
      changedListeners.add(listener);
      return () => changedListeners.delete(listener);
    },

    /** Checks hourly whether the points are older than a day and refreshes them; aggregators keep their own lists. */
    start(intervalMs = POINTS_CHECK_MS): void {
      if (timer) return;
      timer = setInterval(kickRefresh, intervalMs);
      timer.unref();
      kickRefresh();
      for (const aggregator of aggregators.values()) aggregator.start(intervalMs);
    },

    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await refreshing;
      for (const aggregator of aggregators.values()) await aggregator.stop();
    },
  };
}

export type ProviderConnections = ReturnType<typeof createProviderConnections>;

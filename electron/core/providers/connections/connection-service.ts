import type { Selectable } from 'kysely';
import type { Connection, ConnectionTestResult } from '../../../../shared/contract/connections';
import type { connectionCreateSchema, connectionUpdateSchema } from '../../../../shared/contract/connections';
import { formatTimestamp } from '../../../../shared/time';
import type { z } from 'zod';
import type { Clock } from '../../clock';
import { notFound, validationError } from '../../errors';
import type { Logger } from '../../logger';
import type { Db } from '../../store/database';
import type { ProviderConnectionsTable } from '../../store/schema';
import { cdekInfo, createCdekProvider, type CdekProvider } from '../cdek/cdek-provider';
import { storeCarrierTariffs, syncCarrierPointsIfStale } from '../../lists/carrier-reference';
import { CDEK_POINT_SOURCE } from '../cdek/offices-store';
import { cdekTariffRecords } from '../cdek/mapping';
import { CDEK_PRODUCTION_URL, CDEK_TEST_ACCOUNT, CDEK_TEST_URL, createCdekClient, type CdekCallInfo, type FetchLike } from '../cdek/client';
import { ProviderUnavailableError, type Carrier } from '../provider';
import { UPSTREAM_KIND } from '../upstream/mapping';
import { createUpstreamConnections } from '../upstream/upstream-connections';
import type { UpstreamTuning } from '../upstream/upstream-provider';
import { createConnectionRouter, type ConnectedAdapter } from './connection-router';
import type { SecretBox } from './secret-box';

/** Knobs of the CDEK adapters built for connections (the tests shorten the waits). */
export interface CdekTuning {
  fetch?: FetchLike;
  timeoutMs?: number;
  refreshBeforeMs?: number;
  pollDelaysMs?: number[];
  sleep?: (ms: number) => Promise<void>;
  officesPageSize?: number;
  onCall?: (call: CdekCallInfo) => void;
}

export interface ConnectionsDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  secretBox: SecretBox;
  cdek?: CdekTuning;
  /** Knobs of the upstream aggregator adapters (the tests' short waits). */
  upstream?: UpstreamTuning;
}

type Row = Selectable<ProviderConnectionsTable>;
type CreateInput = z.output<typeof connectionCreateSchema>;
type UpdateInput = z.output<typeof connectionUpdateSchema>;
interface Credentials {
  clientId: string;
  clientSecret: string;
}
/** What an upstream aggregator connection stores (sealed like CDEK's credentials). */
interface UpstreamCredentials {
  token: string;
}
type AnyCredentials = Credentials | UpstreamCredentials;
const isUpstream = (row: Pick<Row, 'provider_key'>) => row.provider_key === UPSTREAM_KIND;

const OFFICES_CHECK_MS = 60 * 60 * 1000;

/**
 * The shop's accounts with delivery services (several per service, each a providerConnectId), their
 * encrypted credentials, and the adapters built from them. Connections belong to the shop (the desktop
 * install), not to one API company. Changing a connection rebuilds its adapter at once.
 */
export function createProviderConnections(deps: ConnectionsDeps) {
  const { db, clock, log, secretBox } = deps;
  const tuning = deps.cdek ?? {};
  let cdekAdapters: (ConnectedAdapter & { testMode: boolean; cdek: CdekProvider | null })[] = [];
  let timer: NodeJS.Timeout | null = null;
  let refreshing: Promise<void> | null = null;

  const upstream = createUpstreamConnections({ db, clock, log, tuning: deps.upstream });

  const cdekRouter = createConnectionRouter(
    'cdek',
    () => cdekInfo(cdekAdapters.length > 0 && cdekAdapters.every((a) => a.testMode)),
    () => cdekAdapters,
  );

  function readCredentials(row: Row): Credentials | null {
    if (!row.credentials) return null;
    const parsed = JSON.parse(secretBox.decrypt(row.credentials)) as Credentials;
    return parsed;
  }

  /** The token of an upstream connection, or why it cannot be read. */
  function upstreamToken(row: Row): { token: string | null; problem: string | null } {
    try {
      const sealed = row.credentials ? (JSON.parse(secretBox.decrypt(row.credentials)) as Partial<UpstreamCredentials>) : null;
      return { token: sealed?.token ?? null, problem: null };
    } catch {
      return { token: null, problem: 'its token cannot be decrypted on this computer; enter it again' };
    }
  }

  function readable(row: Row): { credentials: Credentials | null; ok: boolean } {
    try {
      return { credentials: readCredentials(row), ok: true };
    } catch {
      return { credentials: null, ok: false };
    }
  }

  function buildCdek(row: Row, credentials: Credentials): CdekProvider {
    const testMode = row.test_mode === 1;
    const client = createCdekClient({
      baseUrl: row.base_url ?? (testMode ? CDEK_TEST_URL : CDEK_PRODUCTION_URL),
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      fetch: tuning.fetch,
      clock,
      timeoutMs: tuning.timeoutMs,
      refreshBeforeMs: tuning.refreshBeforeMs,
      log: log.child({ service: 'cdek' }),
      onCall: tuning.onCall,
    });
    return createCdekProvider({ client, db, clock, testMode, pollDelaysMs: tuning.pollDelaysMs, sleep: tuning.sleep, officesPageSize: tuning.officesPageSize });
  }

  /** A connection whose secrets this computer cannot read: its orders wait (retried) until it is fixed. */
  function unusable(row: Row, reason: string): Carrier {
    const fail = async (): Promise<never> => {
      throw new ProviderUnavailableError(`connection "${row.name}" (${row.id}): ${reason}`);
    };
    return { info: cdekInfo(row.test_mode === 1), check: async () => [], register: fail, find: fail, track: fail };
  }

  /** The adapter for a row: its own credentials, or CDEK's public test account in test mode. */
  function adapterFor(row: Row): { provider: Carrier; cdek: CdekProvider | null; problem?: string } {
    const { credentials, ok } = readable(row);
    const effective = credentials ?? (row.test_mode === 1 ? CDEK_TEST_ACCOUNT : null);
    const problem = !ok ? 'its credentials cannot be decrypted on this computer; enter them again' : !effective ? 'no credentials are stored' : null;
    if (problem || !effective) return { provider: unusable(row, problem ?? ''), cdek: null, problem: problem ?? '' };
    const cdek = buildCdek(row, effective);
    return { provider: cdek, cdek };
  }

  async function rows(): Promise<Row[]> {
    return db.selectFrom('provider_connections').selectAll().orderBy('id').execute();
  }

  async function reload(): Promise<void> {
    const all = await rows();
    cdekAdapters = all
      .filter((r) => r.provider_key === 'cdek')
      .map((r) => {
        const { provider, cdek: adapter } = adapterFor(r);
        return { connectionId: r.id, testMode: r.test_mode === 1, provider, cdek: adapter };
      });
    await storeCarrierTariffs(db, CDEK_POINT_SOURCE, cdekAdapters.length > 0 ? cdekTariffRecords() : []);
    await upstream.load(
      all.filter(isUpstream).map((r) => ({ id: r.id, name: r.name, baseUrl: r.base_url, ...upstreamToken(r) })),
    );
  }

  function toConnection(row: Row, defaultId: number | undefined): Connection {
    const { credentials, ok } = readable(row);
    return {
      id: row.id,
      providerKey: row.provider_key,
      name: row.name,
      testMode: row.test_mode === 1,
      baseUrl: row.base_url,
      clientIdHint: isUpstream(row) ? tokenHint(upstreamToken(row).token) : credentials ? `…${credentials.clientId.slice(-4)}` : null,
      credentialsStored: row.credentials !== null,
      credentialsReadable: ok,
      isDefault: row.id === defaultId,
      created: formatTimestamp(row.created_at),
      updated: formatTimestamp(row.updated_at),
    };
  }

  async function describe(id: number): Promise<Connection> {
    const all = await rows();
    const row = all.find((r) => r.id === id);
    if (!row) throw notFound(`Connection ${id} was not found`);
    return toConnection(row, all.find((r) => r.provider_key === row.provider_key)?.id);
  }

  async function rowOf(id: number): Promise<Row> {
    const row = await db.selectFrom('provider_connections').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(`Connection ${id} was not found`);
    return row;
  }

  const seal = (c: AnyCredentials | null | undefined) =>
    !c ? null : secretBox.encrypt(JSON.stringify('token' in c ? { token: c.token } : { clientId: c.clientId, clientSecret: c.clientSecret }));

  /** Last characters of a long token, to tell accounts apart; a short one is not hinted at. */
  const tokenHint = (token: string | null) => (token && token.length >= 12 ? `…${token.slice(-4)}` : null);

  /** The kind's own rules of a change: an upstream keeps an address and a token, CDEK its kind of credentials. */
  function checkChange(row: Row, input: UpdateInput) {
    if (isUpstream(row)) {
      if (input.baseUrl === null) throw validationError([{ field: 'baseUrl', message: 'is required for an upstream aggregator' }]);
      if (input.credentials === null) throw validationError([{ field: 'credentials', message: 'an upstream aggregator always needs its token' }]);
      if (input.credentials && !('token' in input.credentials)) throw validationError([{ field: 'credentials.token', message: 'is required for an upstream aggregator' }]);
    } else if (input.credentials && !('clientId' in input.credentials)) {
      throw validationError([{ field: 'credentials.clientId', message: 'is required for CDEK' }]);
    }
  }

  /** The CDEK adapter of a connection (or the default one) for calculator, intervals, labels and points. */
  function cdek(connectionId?: number): CdekProvider | undefined {
    const found = connectionId === undefined ? cdekAdapters.find((a) => a.cdek) : cdekAdapters.find((a) => a.connectionId === connectionId);
    return found?.cdek ?? undefined;
  }

  /** Keeps the offices fresh: a production account is preferred, its data being the real one. */
  async function refreshOffices(): Promise<void> {
    const source = cdekAdapters.find((a) => a.cdek && !a.testMode) ?? cdekAdapters.find((a) => a.cdek);
    const points = source?.cdek?.referenceData.points;
    if (!points) return;
    const result = await syncCarrierPointsIfStale({ db, clock, sleep: tuning.sleep }, points);
    if (result) log.info(`cdek: ${result.total} offices synced in ${result.pages} pages (${result.disabled} closed)`);
  }

  return {
    /** Connection-backed services for the registry: CDEK appears once it has a connection, an upstream's services once listed. */
    providers: (): Carrier[] => [...(cdekAdapters.length ? [cdekRouter] : []), ...upstream.providers()],
    /** Any connection-backed service by key, including upstream services the upstream no longer lists (their old orders). */
    provider: (key: string): Carrier | undefined => upstream.provider(key),
    reload,
    cdek,
    /** The upstream aggregator connections: their sync, intervals and prices. */
    upstream,

    async list(): Promise<Connection[]> {
      const all = await rows();
      const defaults = new Map<string, number>();
      for (const r of all) if (!defaults.has(r.provider_key)) defaults.set(r.provider_key, r.id);
      return all.map((r) => toConnection(r, defaults.get(r.provider_key)));
    },

    async create(input: CreateInput): Promise<Connection> {
      const now = clock.now();
      const { id } = await db
        .insertInto('provider_connections')
        .values({
          provider_key: input.providerKey,
          name: input.name,
          test_mode: input.testMode ? 1 : 0,
          base_url: input.baseUrl ?? null,
          credentials: seal(input.credentials),
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await reload();
      if (input.providerKey === UPSTREAM_KIND) await upstream.afterSave(id);
      return describe(id);
    },

    async update(input: UpdateInput): Promise<Connection> {
      const row = await rowOf(input.id);
      checkChange(row, input);
      const testMode = input.testMode ?? row.test_mode === 1;
      const credentials = input.credentials === undefined ? row.credentials : seal(input.credentials);
      if (!testMode && credentials === null) throw validationError([{ field: 'credentials', message: 'are required outside test mode' }]);
      await db
        .updateTable('provider_connections')
        .set({
          name: input.name ?? row.name,
          test_mode: testMode ? 1 : 0,
          base_url: input.baseUrl === undefined ? row.base_url : input.baseUrl,
          credentials,
          updated_at: clock.now(),
        })
        .where('id', '=', row.id)
        .execute();
      await reload();
      if (isUpstream(row)) await upstream.afterSave(row.id);
      return describe(row.id);
    },

    async delete(input: { id: number }): Promise<{ id: number; deleted: string }> {
      const row = await rowOf(input.id);
      await db.deleteFrom('provider_connections').where('id', '=', input.id).execute();
      await reload();
      if (isUpstream(row)) await upstream.forget(row.id);
      return { id: input.id, deleted: formatTimestamp(clock.now()) };
    },

    /** Signs in with the connection as stored (a fresh token) and makes one cheap call; never throws for a failed check. */
    async test(input: { id: number }): Promise<ConnectionTestResult> {
      const row = await rowOf(input.id);
      const checkedAt = formatTimestamp(clock.now());
      if (isUpstream(row)) return { ...(await upstream.test(row.id)), checkedAt, tokenExpiresIn: null };
      const { cdek: adapter, problem } = adapterFor(row);
      if (!adapter) return { ok: false, message: `Connection "${row.name}": ${problem}`, checkedAt, tokenExpiresIn: null };
      try {
        const { expiresInSeconds } = await adapter.testConnection();
        return { ok: true, message: `Connected to CDEK${row.test_mode ? ' (test mode)' : ''}`, checkedAt, tokenExpiresIn: expiresInSeconds };
      } catch (error) {
        return { ok: false, message: error instanceof Error ? error.message : String(error), checkedAt, tokenExpiresIn: null };
      }
    },

    refreshOffices,

    /** Checks hourly whether the offices are older than a day and refreshes them. */
    start(intervalMs = OFFICES_CHECK_MS): void {
      if (timer) return;
      const kick = () => {
        refreshing ??= refreshOffices()
          .catch((error) => log.warn(`cdek: offices refresh failed: ${error instanceof Error ? error.message : String(error)}`))
          .finally(() => {
            refreshing = null;
          });
      };
      timer = setInterval(kick, intervalMs);
      timer.unref();
      kick();
      upstream.start(intervalMs);
    },

    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await refreshing;
      await upstream.stop();
    },
  };
}

export type ProviderConnections = ReturnType<typeof createProviderConnections>;

import type { ConnectionFieldInfo, ConnectionSettingValue } from '../../../shared/contract/connections';
import type { ProviderInfo } from '../../../shared/contract/providers';
import type { Point } from '../../../shared/schemas/lists';
import type { Clock } from '../clock';
import type { Logger } from '../logger';
import type { AggregatorLists } from '../lists/aggregator-lists';
import type { Carrier } from './provider';
import type { MessageRef } from '../../../shared/messages';

/**
 * A kind of delivery service the shop connects with its own account (CDEK, an upstream aggregator, …).
 * Each kind lives in its folder and exports one of these; `kinds.ts` lists them, and connections, the
 * calculator, intervals, lists, courier calls and printing reach the services only through this shape.
 * See README.md, "Adding a delivery service".
 */

/** One setting of a connection, as the owner fills it in (the settings form is drawn from these). */
export type ConnectionField = ConnectionFieldInfo;

/** A stored connection as a kind sees it: its secrets decrypted, its other settings parsed. */
export interface CarrierConnection {
  /** The providerConnectId of orders that go through this account. */
  id: number;
  name: string;
  testMode: boolean;
  /** The owner's address override (a proxy, a local fake), or null for the service's own host. */
  baseUrl: string | null;
  /** Secret fields by name; empty when none are stored (test mode may then use `testAccount`). */
  secrets: Record<string, string>;
  /** The non-secret fields by name, as stored (numbers stay numbers). */
  settings: Record<string, ConnectionSettingValue>;
}

/** Read-only access to reference data lists/ keeps, for a carrier's own checks (a carrier never writes it). */
export interface StoredReference {
  /** A point of the service by our id (closed ones too, so a check can say "closed"). */
  point(providerKey: string, id: number): Promise<Point | null>;
}

/** What every carrier is built with. */
export interface CarrierDeps {
  clock: Clock;
  log: Logger;
  reference: StoredReference;
  /** The kind's own transport knobs (tests: a fake's fetch, short waits); the kind knows their shape. */
  tuning?: unknown;
}

/** What "Test connection" shows. A failed check throws; its message is shown as it is. */
export interface ConnectionCheck extends Partial<MessageRef> {
  message: string;
  /** Lifetime of the token the service gave, when it gave one. */
  tokenExpiresIn: number | null;
}

interface KindBase {
  /** The service key orders carry (providerKey), and the `source` of its rows in the reference tables. */
  readonly key: string;
  /** As the owner knows it, e.g. "СДЭК". */
  readonly name: string;
  /** Its name in the English window, e.g. "CDEK". */
  readonly englishName: string;
  /** How English messages name it: "is required for CDEK". */
  readonly noun: string;
  /** Offers a test mode (its test host, or a public test account). */
  readonly testMode: boolean;
  /** Whether the connection needs an address (an aggregator's), may override it (a proxy), or has none. */
  readonly baseUrl: 'required' | 'optional';
  /** Its settings beyond name, test mode and address; secret ones are sealed at rest and never leave the core. */
  readonly fields: readonly ConnectionField[];
}

/**
 * A service with one key: every connection is one account of it, and orders pick the account by
 * providerConnectId (the oldest connection is the default). This is the form a new delivery service takes.
 */
export interface ServiceKind<C extends Carrier = Carrier> extends KindBase {
  /** The service as /lists/providers shows it; `testMode` when every connection of it is in test mode. */
  info(testMode: boolean): ProviderInfo;
  /** The account's carrier. Called again whenever the connection changes; it must not touch the database. */
  create(connection: CarrierConnection, deps: CarrierDeps): C;
  /** Signs in with the account and makes one cheap call. */
  test(carrier: C, connection: CarrierConnection): Promise<ConnectionCheck>;
  /** Credentials used in test mode when the owner stored none (the service's public test account). */
  readonly testAccount?: Record<string, string>;
}

/**
 * An aggregator: one connection brings several services (its own list), each under a key of its own.
 * It keeps its accounts itself; connections hands it every stored connection of its kind.
 */
export interface AggregatorKind extends KindBase {
  aggregator(deps: CarrierDeps & { lists: AggregatorLists; exclusive: RunExclusive }): Aggregator;
}

/**
 * Runs periodic work of this name unless another instance on the database runs it right now (then resolves false at
 * once): the instances store's `tryRunExclusive`.
 */
export type RunExclusive = (name: string, work: () => Promise<void>) => Promise<boolean>;

/** The live side of an aggregator kind. */
export interface Aggregator {
  /** The stored connections of the kind, after any change; `problem` says why one cannot be used. */
  load(connections: (CarrierConnection & { problem: string | null })[]): Promise<void>;
  /** The services the accounts offer now (for /lists/providers). */
  carriers(): Carrier[];
  /** Any service by key, ones no longer offered too (their old orders). */
  carrier(key: string): Carrier | undefined;
  test(connectionId: number): Promise<{ ok: boolean; message: string } & Partial<MessageRef>>;
  /** After a connection was saved: its service list now, the rest in the background. */
  saved(connectionId: number): Promise<void>;
  /** A removed connection: what was copied from it goes too. */
  forget(connectionId: number): Promise<void>;
  /** Its service list, tariffs and additional services now (points are left to `sync`); the number of services. */
  syncLists(connectionId: number): Promise<number>;
  /** Everything it offers, points included, now. */
  sync(connectionId: number): Promise<unknown>;
  start(intervalMs: number): void;
  stop(): Promise<void>;
}

export type CarrierKind = ServiceKind<any> | AggregatorKind; // eslint-disable-line @typescript-eslint/no-explicit-any

export const isAggregator = (kind: CarrierKind): kind is AggregatorKind => 'aggregator' in kind;

/** A service kind, typed by its own carrier, as the table takes it. */
export const serviceKind = <C extends Carrier>(kind: ServiceKind<C>): ServiceKind<C> => kind;

/** How many calls the outbox makes to one connection's service at once when its "parallel calls" is empty. */
export const DEFAULT_PARALLEL_CALLS = 8;

/**
 * Settings every connection has whatever its kind; a setting added here shows on every connection's form
 * and reaches `settings`. `parallelCalls`: how many of its orders the outbox sends at once (the service's
 * rate limits decide; lower it when the service answers 429).
 */
export const commonConnectionFields: readonly ConnectionField[] = [
  {
    name: 'parallelCalls',
    label: { ru: `Запросов одновременно (пусто — ${DEFAULT_PARALLEL_CALLS})`, en: `Calls at once (empty: ${DEFAULT_PARALLEL_CALLS})` },
    secret: false,
    type: 'number',
    required: 'never',
    min: 1,
    max: 64,
  },
];

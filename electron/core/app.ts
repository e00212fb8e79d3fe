import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Result } from '../../shared/result';
import { createCalculatorService } from './calculator/calculator-service';
import { createReferencePoints } from './calculator/points';
import { systemClock, type Clock } from './clock';
import { createAuthService } from './auth/auth-service';
import { ownerOf, type Caller, type Visitor } from './auth/caller';
import { dispatch, type CommandTable } from './commands';
import { createCourierRefresh } from './courier/courier-refresh';
import { createCourierService } from './courier/courier-service';
import { createCompanyService } from './companies/company-service';
import { createEventBus, relayAcrossInstances } from './events';
import { createIntervalService } from './intervals/interval-service';
import { guardedFetch, type FetchLike } from './import/download';
import { createImportService, type ImportOptions } from './import/import-service';
import { createImportPresetService } from './import-presets/preset-service';
import { createListsService } from './lists/lists-service';
import { defaultResourcesDir, loadReferenceData } from './lists/reference-data';
import type { Logger } from './logger';
import { createFileLog } from './logging/file-log';
import { supportBundle } from './logging/support-bundle';
import { createOrderService } from './orders/order-service';
import { createApiLoginService } from './api-login/api-login-service';
import { createOutbox, type OutboxDeps } from './outbox/outbox';
import type { Carrier } from './providers/provider';
import { createProviderRegistry } from './providers/registry';
import { sandboxServices } from './providers/sandbox/catalog';
import { createSandboxProvider } from './providers/sandbox/sandbox-provider';
import { withConnections } from './providers/connections/connected-registry';
import { createProviderConnections } from './providers/connections/connection-service';
import type { CdekTuning } from './providers/cdek/kind';
import type { CarrierKind, StoredReference } from './providers/carrier-kind';
import { createStoredReference } from './lists/carrier-reference';
import { createReferenceData } from './orders/reference-data';
import { createKeyFileSecretBox, type SecretBox } from './providers/connections/secret-box';
import type { UpstreamTuning } from './providers/upstream/upstream-provider';
import { createStatusRefresher } from './statuses/refresh';
import { createStatusService } from './statuses/status-service';
import { sqliteDatabaseFiles } from './store/backups/sqlite';
import { openStores } from './store/stores';
import type { OpenedDatabase } from './store/database';
import { databaseFile } from './paths';
import { applyPendingRestore, createBackupService } from './backup/backup-service';
import { createDraftService } from './drafts/draft-service';
import { exportOrdersXlsx } from './export/orders-xlsx';
import { createBulkActions } from './orders/bulk';
import { createLabelService } from './orders/labels';
import { createActService } from './dispatch/acts';
import { createDispatchService } from './dispatch/dispatch-service';
import { createPostalBatchService } from './dispatch/postal-batches';
import { attentionSummary, markAttentionSeen } from './dashboard/attention';
import { nextTestChange } from './dashboard/next-change';
import { createDashboard } from './dashboard/today';
import { createFileLinks } from './print/file-links';
import { printedFileAnswer, mergePdfs } from './print/merge';
import { outboxView } from './scheduler/outbox-view';
import { createRefreshScheduler } from './scheduler/refresh-scheduler';
import { stuckOrders } from './scheduler/stuck-orders';
import { systemTimers, type Timers } from './scheduler/timers';
import { createSettingsService } from './settings/settings-service';
import { createDatabaseChoice, describeDatabase, readDatabaseChoice, type DatabaseInUse } from './settings/database-choice';
import { createLanService } from './lan/lan-service';
import { createUsualDropOff } from './settings/usual-drop-off';
import { createWebhookDelivery, type WebhookDeliveryDeps } from './webhooks/webhook-delivery';
import { createWebhookService } from './webhooks/webhook-service';

export interface AppOptions {
  /** Spreadsheet import limits and knobs, and the fetch for `file.url` (tests: a local server, small limits). */
  imports?: Partial<ImportOptions> & { fetch?: FetchLike };
  /** Folder of the database and the app's files. */
  dataDir: string;
  /** ':memory:' for throwaway tests; default is the file in dataDir. */
  databaseFile?: string;
  /** A PostgreSQL server's URL (postgres://…): the data lives there instead of the SQLite file in dataDir. */
  database?: string;
  clock?: Clock;
  /** Where the core logs; default JSON lines in `<dataDir>/logs/` (warnings also on stderr). */
  log?: Logger;
  /** The app's version for the log's start line: the desktop shell's; default the version in the sources' package.json. */
  version?: string;
  /** The Electron build of better-sqlite3. */
  nativeBinding?: string;
  /** Extra delivery services (adapters under test, for example) beside the built-in sandbox ones. */
  providers?: (deps: { clock: Clock; reference: StoredReference }) => Carrier[];
  /** Start the background workers (outbox). Tests leave them off and drive the work by hand. */
  startWorkers?: boolean;
  /** Shipped resources (sandbox reference data); default `<repo>/resources`, the packaged app passes its own. */
  resourcesDir?: string;
  /** Encrypts connection credentials: the shell passes a safeStorage box; default an AES-GCM key file in dataDir. */
  secretBox?: SecretBox;
  /** Transport knobs of the CDEK adapters built for connections (tests: the fake's fetch, short timeouts). */
  cdek?: CdekTuning;
  /** Transport knobs of the upstream aggregator adapters (tests: short waits, their own fetch). */
  upstream?: UpstreamTuning;
  /** The kinds of service the shop can connect; default the table in providers/kinds.ts (tests add one of their own). */
  carrierKinds?: readonly CarrierKind[];
  /** Transport knobs of any connectable kind by its key (providers/kinds.ts); `cdek` and `upstream` above are two of them. */
  carrierTuning?: Record<string, unknown>;
  /** Timers of the status refresh scheduler (tests: manualTimers on the manual clock). */
  timers?: Timers;
  /**
   * Test seam: wraps every built-in and extra delivery service, e.g. to fail its calls as an unreachable
   * network would (test/helpers/network-switch.ts). Never set by the shells.
   */
  wrapProvider?: (provider: Carrier) => Carrier;
  /** Knobs of the webhook calls (tests: a short timeout). */
  webhooks?: Pick<WebhookDeliveryDeps, 'timeoutMs' | 'pollMs' | 'batchSize'>;
  /** Knobs of the outbox: its lease on the jobs it claims, the wait after a failed call (tests: short ones). */
  outbox?: Pick<OutboxDeps, 'leaseMs' | 'backoff'>;
  /** Bytes the kept `/lists/points` pages may take (lists/page-cache.ts; tests: a small bound). */
  pointPageCacheBytes?: number;
}

/**
 * The version in package.json beside the sources (browser mode and the tests run from them); "unknown" when not found.
 * Read once per process: a test run makes hundreds of apps.
 */
let sourcesVersionRead: string | undefined;
function sourcesVersion(): string {
  if (sourcesVersionRead !== undefined) return sourcesVersionRead;
  try {
    sourcesVersionRead = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    sourcesVersionRead = 'unknown';
  }
  return sourcesVersionRead;
}

/** The composition root: database, services, command table. Both shells and the tests start here. */
export async function createApp(options: AppOptions) {
  const clock = options.clock ?? systemClock;
  const fileLog = options.log ? null : await createFileLog(options.dataDir, { echo: process.stderr });
  const log = options.log ?? fileLog!.log;
  const secretBox = options.secretBox ?? createKeyFileSecretBox(options.dataDir);
  // serve's --database first, else the owner's choice in Settings → Database, else the data folder's SQLite file.
  const postgres = options.database ?? (options.databaseFile === undefined ? readDatabaseChoice(options.dataDir, secretBox) : undefined);
  const sqliteFile = options.databaseFile ?? databaseFile(options.dataDir);
  const inUse: DatabaseInUse = postgres !== undefined ? { postgres } : { file: sqliteFile };
  const version = options.version ?? sourcesVersion();
  // The first line of a run in the log support reads: which version on which data (no password of the database).
  log.info(`ShipDesk ${version} starting`, {
    version, dataDir: options.dataDir, node: process.versions.node, platform: process.platform,
    database: describeDatabase(inUse),
  });
  if (options.databaseFile === undefined && postgres === undefined) {
    // A restore staged by backup.restore goes in before anything opens the database.
    try {
      const restored = await applyPendingRestore(options.dataDir, clock.now(), sqliteDatabaseFiles(options.nativeBinding));
      if (restored) log.info(`Database restored from a backup; the previous one is kept as ${restored.previous ?? '(none)'}`);
    } catch (error) {
      log.error('Applying the staged restore failed; the current database stays', error);
    }
  }
  const { opened: store, stores } = await openStores(
    postgres !== undefined ? { postgres, now: clock.now() } : { file: sqliteFile, nativeBinding: options.nativeBinding, now: clock.now() },
  );
  const { db } = store;
  try {
    // Points, tariffs and services of the sandbox services; near-free when the shipped version is already in.
    const reference = await loadReferenceData(stores.reference, { resourcesDir: options.resourcesDir ?? defaultResourcesDir, now: clock.now() });
    if (!reference) log.warn(`No sandbox reference data in ${options.resourcesDir ?? defaultResourcesDir}: the point and tariff lists stay as they are`);
    else if (reference.loaded) log.info(`Reference data ${reference.version}: ${reference.points} points loaded in ${reference.ms.toFixed(0)} ms`);
  } catch (error) {
    log.error('Loading the sandbox reference data failed; the lists keep the previous data', error);
  }
  const events = createEventBus((error) => log.error('event listener failed', error));
  const referenceData = createReferenceData(stores.reference);
  const connections = createProviderConnections({
    store: stores.connections, reference: stores.reference, instances: stores.instances, clock, log, secretBox, kinds: options.carrierKinds, tuning: { ...options.carrierTuning, ...(options.cdek && { cdek: options.cdek }), ...(options.upstream && { upstream: options.upstream }) },
  });
  // Set by whoever serves the local interface (browser mode after it listens); the settings page shows it.
  let localApiUrl: string | null = null;
  await connections.reload();
  const providers = withConnections(
    createProviderRegistry(
      [
        ...sandboxServices.map((service) => createSandboxProvider(service, { store: stores.sandbox, clock, reference: referenceData, log })),
        ...(options.providers?.({ clock, reference: createStoredReference(stores.reference) }) ?? []),
      ].map(
        options.wrapProvider ?? ((provider) => provider),
      ),
    ),
    connections,
  );
  /** This process among the instances on one database: the outbox leases jobs under it, events from others are told by it. */
  const instanceId = randomUUID();
  const outbox = createOutbox({ holder: instanceId, store: stores.orders, clock, providers, events, log, laneOf: connections.laneOf, ...options.outbox });
  // A connection created, saved or deleted (its login perhaps fixed): the connections paused for refused credentials
  // try again, here and, once they have loaded the connections again, in the other instances on the database.
  connections.onChanged(() => outbox.credentialsChanged());
  // Other instances on the same database (PostgreSQL) hear of changes made here, and this one of theirs; so do they of
  // points, tariffs and connections written here (what each keeps in memory), and this one of theirs.
  const stopRelay = await relayAcrossInstances(
    events, stores.instances, instanceId, (error) => log.warn(`events from other instances: ${error instanceof Error ? error.message : String(error)}`), {
      points: { onWritten: (listener) => stores.reference.onPointsWritten(listener), changedElsewhere: () => stores.reference.pointsChanged() },
      tariffs: { onWritten: (listener) => stores.reference.onTariffsWritten(listener), changedElsewhere: () => stores.reference.tariffsChanged() },
      connections: {
        onWritten: (listener) => connections.onChanged(listener),
        changedElsewhere: async () => {
          await connections.reload();
          outbox.credentialsChanged();
        },
      },
    },
  );
  const companies = createCompanyService(stores.accounts, clock);
  const apiLogins = createApiLoginService({ accounts: stores.accounts, clock });
  const auth = createAuthService({ accounts: stores.accounts, clock, companies, events });
  const orders = createOrderService({
    store: stores.orders, handoverOf: stores.orders.findHandover, clock, providers, outbox, events, reference: referenceData,
  });
  const statuses = createStatusService({ store: stores.orders });
  const statusRefresh = createStatusRefresher({ store: stores.orders, clock, providers, events, log });
  const calculator = createCalculatorService({ clock, providers, log, points: createReferencePoints(stores.reference, providers) });
  const lists = createListsService({ reference: stores.reference, providers, pointPageCacheBytes: options.pointPageCacheBytes });
  const imports = createImportService({
    orders: stores.orders, drafts: stores.drafts, imports: stores.imports, clock, log, events, providers, outbox, reference: referenceData, options: options.imports, dataDir: options.dataDir,
    // file.url: public addresses only unless the owner allowed local ones (settings is built below; asked per download).
    fetch: guardedFetch({ fetch: options.imports?.fetch, allowLocal: async () => (await settings.preferences()).allowLocalDownloads, log: log.child({ service: 'file.url' }) }),
    defaultSender: async (ctx) => (await settings.listProfiles(ctx)).find((p) => p.isDefault)?.sender,
    language: () => settings.language(),
  });
  const intervals = createIntervalService({ clock, providers, log });

  const settings = createSettingsService({ accounts: stores.accounts, clock, events, log, dataDir: options.dataDir });
  const databaseChoice = createDatabaseChoice({ dataDir: options.dataDir, secretBox, inUse, sqliteFile: databaseFile(options.dataDir) });
  const lan = createLanService({ accounts: stores.accounts, clock, log, dataDir: options.dataDir });
  const usualDropOff = createUsualDropOff(stores.reference, clock);
  const drafts = createDraftService({ drafts: stores.drafts, clock, orders, providers, events });
  const importPresets = createImportPresetService({ drafts: stores.drafts, clock });
  const backup = createBackupService({ backups: stores.backups, files: sqliteDatabaseFiles(options.nativeBinding), clock, log, dataDir: options.dataDir });
  const courierRefresh = createCourierRefresh({ store: stores.courierCalls, clock, providers, events, log, laneOf: connections.laneOf });
  const scheduler = createRefreshScheduler({ store: stores.orders, instances: stores.instances, clock, timers: options.timers ?? systemTimers, refresher: statusRefresh, courier: courierRefresh, settings, events, log });
  const resourcesDir = options.resourcesDir ?? defaultResourcesDir;
  const labels = createLabelService({ orders: stores.orders, reference: stores.reference, providers, resourcesDir, log });
  const acts = createActService({ store: stores.orders, clock, providers, resourcesDir, company: async (ctx) => (await settings.get(ctx)).company });
  const dispatchService = createDispatchService({ store: stores.orders, clock, providers, events });
  const postalBatches = createPostalBatchService({ store: stores.postalBatches, providers, clock, events, dispatch: dispatchService });
  const dashboard = createDashboard({ store: stores.orders, clock, providers });
  const fileLinks = createFileLinks(clock);
  const courier = createCourierService({
    store: stores.courierCalls, orders: stores.orders, clock, providers, defaultSender: async (ctx) => (await settings.listProfiles(ctx))[0]?.sender ?? null,
  });
  // Webhooks may call local addresses only when the owner allowed it (asked at each registration and pass).
  const allowLocalWebhooks = async () => (await settings.preferences()).allowLocalWebhooks;
  const webhooks = createWebhookService({ webhooks: stores.webhooks, orders: stores.orders, clock, allowLocal: allowLocalWebhooks });
  const webhookDelivery = createWebhookDelivery({ webhooks: stores.webhooks, orders: stores.orders, clock, log, events, allowLocal: allowLocalWebhooks, ...options.webhooks });
  const bulk = createBulkActions({ store: stores.orders, orders, log, refresh: (companyId, orderIds) => statusRefresh.refresh({ companyId, orderIds }), drain: () => outbox.drain() });

  const commands: CommandTable = {
    'orders.create': (ctx, input) => orders.create(ctx, input),
    'orders.list': (ctx, input) => orders.list(ctx, input),
    'orders.get': (ctx, input) => orders.view(ctx, input.orderId),
    'orders.update': (ctx, { orderId, ...payload }) => orders.update(ctx, orderId, payload),
    'orders.cancel': (ctx, input) => orders.cancel(ctx, input.orderId),
    'orders.delete': (ctx, input) => orders.remove(ctx, input.orderId),
    'statuses.refresh': (ctx) => statusRefresh.refresh({ companyId: ctx.companyId }),
    'providers.list': async () => providers.list(),
    'statuses.history': (ctx, input) => statuses.appHistory(ctx, input.orderId, { offset: input.offset, limit: input.limit }),
    'calculator.calculate': async (_ctx, input) => calculator.quote(input),
    'calculator.intervals': async (_ctx, input) => intervals.intervals(input),
    'lists.points': async (_ctx, input) => lists.searchPoints(input),
    'lists.point': async (_ctx, input) => lists.point(input),
    'lists.cities': async (_ctx, input) => lists.cities(input),
    'lists.tariffs': async (_ctx, input) => lists.tariffList(input),
    'lists.services': async (_ctx, input) => lists.serviceList(input),
    'connections.kinds': async () => connections.kinds(),
    'connections.list': () => connections.list(),
    'connections.create': (_ctx, input) => connections.create(input),
    'connections.update': (_ctx, input) => connections.update(input),
    'connections.delete': (_ctx, input) => connections.delete(input),
    'connections.test': (_ctx, input) => connections.test(input),
    'import.preview': (ctx, input) => imports.preview(ctx, input),
    'import.suggestMapping': async (_ctx, input) => imports.suggestMapping(input),
    'import.platforms': async () => imports.platforms(),
    'import.template': () => imports.template(),
    'import.dryRun': (ctx, input) => imports.dryRun(ctx, input),
    'import.run': (ctx, input) => imports.run(ctx, input),
    'import.cancel': (ctx, input) => imports.cancel(ctx, input.importId),
    'import.results': (ctx, input) => imports.results(ctx, input.importId, { offset: input.offset, limit: input.limit }),
    'import.errorsFile': (ctx, input) => imports.errorsFile(ctx, input.importId, input.language),
    'import.fields': (ctx) => imports.fields(ctx),
    'import.presets.list': (ctx) => importPresets.list(ctx),
    'import.presets.save': (ctx, input) => importPresets.save(ctx, input),
    'import.presets.delete': (ctx, input) => importPresets.delete(ctx, input.id),
    'drafts.save': (ctx, input) => drafts.save(ctx, input),
    'drafts.list': (ctx, input) => drafts.list(ctx, input),
    'drafts.get': (ctx, input) => drafts.get(ctx, input.id),
    'drafts.delete': (ctx, input) => drafts.delete(ctx, input.id),
    'drafts.submit': (ctx, input) => drafts.submit(ctx, input.ids),
    'settings.get': (ctx) => settings.get(ctx),
    'settings.update': (ctx, input) => settings.update(ctx, input),
    'settings.environment': async () => ({ secretStorage: secretBox.describe?.() ?? { kind: 'other' as const, location: null }, localApiUrl }),
    'settings.regenerateToken': (ctx) => settings.regenerateToken(ctx),
    'settings.database': () => databaseChoice.state(),
    'settings.databaseCheck': (_ctx, input) => databaseChoice.check(input.url),
    'settings.databaseChoose': (_ctx, input) => databaseChoice.choose(input),
    'senderProfiles.list': (ctx) => settings.listProfiles(ctx),
    'senderProfiles.create': (ctx, input) => settings.createProfile(ctx, input),
    'senderProfiles.update': (ctx, input) => settings.updateProfile(ctx, input),
    'senderProfiles.delete': (ctx, input) => settings.deleteProfile(ctx, input.id),
    'dropOff.usual': (ctx, input) => usualDropOff.get(ctx, input.providerKey),
    'dropOff.remember': (ctx, input) => usualDropOff.remember(ctx, input.providerKey, input.pointId),
    'backup.now': () => backup.now(),
    'backup.list': () => backup.list(),
    'backup.upload': (_ctx, input) => backup.upload(input),
    'backup.restore': (_ctx, input) => backup.restore(input.id),
    'backup.cancelRestore': () => backup.cancelRestore(),
    'logs.saveForSupport': async () => {
      await fileLog?.flush(); // the lines just logged (the fault the shop is reporting) are in the bundle
      return supportBundle(options.dataDir, clock.now());
    },
    'orders.bulk': (ctx, input) => bulk.run(ctx, input.action, input.orderIds),
    'orders.labels': async (ctx, input) => printedFileAnswer(await labels.print(ctx, input)),
    'orders.waybills': async (ctx, input) => {
      const made = await acts.acts(ctx, input.orderIds);
      const printed = made.acts.reduce((n, act) => n + act.orderIds.length, 0);
      const file = made.acts.length ? { bytes: await mergePdfs(made.acts.map((a) => a.file.bytes)), fileName: made.acts.length === 1 ? made.acts[0].file.fileName : 'acts.pdf', contentType: 'application/pdf' } : null;
      return printedFileAnswer({ file, printed, failedOrders: made.failedOrders });
    },
    'dispatch.pending': (ctx) => dispatchService.pending(ctx),
    'dispatch.handOver': (ctx, input) => dispatchService.handOver(ctx, input),
    'dispatch.postBatches': (ctx) => postalBatches.list(ctx),
    'dispatch.formPostBatches': (ctx, input) => postalBatches.form(ctx, input),
    'dispatch.checkInPostBatch': (ctx, input) => postalBatches.checkIn(ctx, input),
    'dashboard.today': (ctx) => dashboard.today(ctx),
    'orders.attention': (ctx) => attentionSummary(stores.orders, ctx),
    'statuses.nextTestChange': (ctx, input) => nextTestChange({ store: stores.orders, providers }, ctx, input.orderId),
    'orders.markSeen': async (ctx, input) => {
      const result = await markAttentionSeen(stores.orders, ctx, input.orderIds);
      if (result.seen > 0) events.publish({ type: 'orders.changed', companyId: ctx.companyId, orderIds: input.orderIds });
      return result;
    },
    'orders.exportXlsx': (ctx, input) => exportOrdersXlsx({ store: stores.orders, clock, providers }, ctx, input),
    'orders.stuck': async (ctx, input) => stuckOrders(stores.orders, clock, ctx, { days: input.days ?? (await settings.preferences()).stuckThresholdDays, limit: input.limit, offset: input.offset }),
    'statuses.refreshNow': (ctx) => scheduler.refreshNow(ctx.companyId),
    'statuses.lastRefresh': (ctx) => scheduler.lastRefresh(ctx.companyId),
    'outbox.state': (ctx) => outboxView(stores.orders, ctx),
    'courier.create': (ctx, input) => courier.create(ctx, input),
    'courier.cancel': (ctx, input) => courier.cancel(ctx, input.id),
    'courier.list': (ctx, input) => courier.list(ctx, input),
    'courier.prepare': (ctx, input) => courier.prepare(ctx, input.orderIds),
    'lan.get': () => lan.state(),
    'lan.set': (_ctx, input) => lan.set(input),
    'apiLogin.get': (ctx) => apiLogins.get(ctx),
    'apiLogin.set': (ctx, input) => apiLogins.set(ctx, input),
    'apiLogin.clear': (ctx) => apiLogins.clear(ctx),
    'webhooks.overview': () => webhooks.overview(),
    'auth.signIn': (who, input) => auth.signIn(input, who.address),
    'auth.signOut': (ctx) => auth.signOut(ctx),
    'session.current': (ctx) => auth.identity(ctx),
    'users.list': (ctx) => auth.listUsers(ctx),
    'users.create': (ctx, input) => auth.createUser(ctx, input),
    'users.setPassword': (ctx, input) => auth.setPassword(ctx, input),
    'users.remove': (ctx, input) => auth.removeUser(ctx, input),
    'users.revokeSessions': (ctx, input) => auth.revokeSessions(ctx, input),
  };

  await imports.recover(); // before the outbox starts: the jobs a crash left held go at once
  await outbox.recover(); // jobs the last run held when it stopped mid-call go at once
  if (options.startWorkers) outbox.start();
  if (options.startWorkers) connections.start();
  if (options.startWorkers) void scheduler.start();
  if (options.startWorkers) webhookDelivery.start();

  let closed: Promise<void> | null = null;
  return {
    db,
    /** The raw SQLite connection (refused on PostgreSQL). */
    get sqlite(): OpenedDatabase['sqlite'] {
      return store.sqlite;
    },
    stores,
    /** The database this run opened (a PostgreSQL URL with its password: `describeDatabase` says it without). */
    databaseInUse: inUse,
    clock,
    log,
    events,
    providers,
    outbox,
    webhookDelivery,
    services: { companies, auth, orders, statuses, statusRefresh, calculator, intervals, lists, connections, imports, settings, drafts, backup, scheduler, bulk, lan, labels, acts, dispatch: dispatchService, fileLinks, courier, apiLogins, dashboard, webhooks },
    commands,
    /** Runs a command for a caller; its role is checked against the command's declared roles first. */
    dispatch: (name: string, who: Visitor, input: unknown): Promise<Result<unknown>> => dispatch(commands, log, name, who, input),
    /** Records where the local interface is served (…/v1), for the settings page. */
    announceLocalApi(url: string | null): void {
      localApiUrl = url;
    },
    /** The shop's owner: the desktop window acts as it. */
    desktopContext: async (): Promise<Caller> => ownerOf((await companies.desktop()).companyId),
    /** Stops the workers, lets the running pass finish, then closes the database. Safe to call twice. */
    close(): Promise<void> {
      closed ??= (async () => {
        await scheduler.stop();
        await imports.stop();
        await webhookDelivery.stop();
        await outbox.stop();
        await connections.stop();
        await stopRelay();
        await store.close();
        await fileLog?.close();
      })();
      return closed;
    },
  };
}

export type App = Awaited<ReturnType<typeof createApp>>;

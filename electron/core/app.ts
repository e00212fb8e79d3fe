import type { Result } from '../../shared/result';
import { systemClock, type Clock } from './clock';
import { dispatch, type CommandTable } from './commands';
import { createCompanyService, type CallContext } from './companies/company-service';
import { createEventBus } from './events';
import { consoleLogger, type Logger } from './logger';
import { createOrderService } from './orders/order-service';
import { createOutbox } from './outbox/outbox';
import type { DeliveryProvider } from './providers/provider';
import { createProviderRegistry } from './providers/registry';
import { sandboxServices } from './providers/sandbox/catalog';
import { createSandboxProvider } from './providers/sandbox/sandbox-provider';
import { openDatabase, type Db } from './store/database';
import { databaseFile } from './paths';

export interface AppOptions {
  /** Folder of the database and the app's files. */
  dataDir: string;
  /** ':memory:' for throwaway tests; default is the file in dataDir. */
  databaseFile?: string;
  clock?: Clock;
  log?: Logger;
  /** The Electron build of better-sqlite3. */
  nativeBinding?: string;
  /** Extra delivery services (adapters under test, for example) beside the built-in sandbox ones. */
  providers?: (deps: { db: Db; clock: Clock }) => DeliveryProvider[];
  /** Start the background workers (outbox). Tests leave them off and drive the work by hand. */
  startWorkers?: boolean;
}

/** The composition root: database, services, command table. Both shells and the tests start here. */
export async function createApp(options: AppOptions) {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? consoleLogger;
  const store = openDatabase({
    file: options.databaseFile ?? databaseFile(options.dataDir),
    nativeBinding: options.nativeBinding,
    now: clock.now(),
  });
  const { db } = store;
  const events = createEventBus((error) => log.error('event listener failed', error));
  const providers = createProviderRegistry([
    ...sandboxServices.map((service) => createSandboxProvider(service, { db, clock })),
    ...(options.providers?.({ db, clock }) ?? []),
  ]);
  const outbox = createOutbox({ db, clock, providers, events, log });
  const companies = createCompanyService(db, clock);
  const orders = createOrderService({ db, clock, providers, outbox, events });

  const commands: CommandTable = {
    'orders.create': (ctx, input) => orders.create(ctx, input),
    'orders.list': (ctx, input) => orders.list(ctx, input),
    'providers.list': async () => providers.list(),
  };

  if (options.startWorkers) outbox.start();

  let closed: Promise<void> | null = null;
  return {
    db,
    sqlite: store.sqlite,
    clock,
    log,
    events,
    providers,
    outbox,
    services: { companies, orders },
    commands,
    dispatch: (name: string, ctx: CallContext, input: unknown): Promise<Result<unknown>> => dispatch(commands, log, name, ctx, input),
    /** The shop's own company: the desktop window acts as it. */
    desktopContext: async (): Promise<CallContext> => {
      const { companyId } = await companies.desktop();
      return { companyId };
    },
    /** Stops the workers, lets the running pass finish, then closes the database. Safe to call twice. */
    close(): Promise<void> {
      closed ??= (async () => {
        await outbox.stop();
        await store.close();
      })();
      return closed;
    },
  };
}

export type App = Awaited<ReturnType<typeof createApp>>;

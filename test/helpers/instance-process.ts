/**
 * One ShipDesk instance as a process of its own, for the tests of several instances on one PostgreSQL
 * (test/api/postgres-instances.test.ts): the app with its workers on the database, CDEK reached over HTTP with short
 * waits, the outbox's lease and retries short. It may create orders itself (`create`), as a shop at this PC would.
 * Prints `ready <holder>` once running and `created <n>` after its orders; SIGTERM closes it, printing `sent <n>` (the
 * creates it sent CDEK), SIGKILL is a crash.
 * Run: node --import tsx test/helpers/instance-process.ts '<json InstanceConfig>'
 */
import { createApp } from '../../electron/core/app';
import { silentLogger, type Logger } from '../../electron/core/logger';
import { jitteredBackoffFrom } from '../../electron/core/outbox/backoff';
import { createNodeHttpFetch } from '../fakes/cdek/node-fetch';
import { cdekOrder } from '../fakes/cdek/orders';

export interface InstanceConfig {
  database: string;
  dataDir: string;
  leaseMs: number;
  firstRetryMs: number;
  /**
   * The longest wait between two tries of a job (the app's backoff doubles from firstRetryMs up to 10 minutes): a job
   * that failed a dozen times in a row would otherwise sleep past the test's wait while the rest are long done.
   */
  maxRetryMs: number;
  /** Orders this instance creates once it runs: client numbers prefix-0001 … prefix-count. */
  create?: { prefix: string; count: number };
}

const config = JSON.parse(process.argv[2]!) as InstanceConfig;
/** Errors on stderr (the test shows them when it fails); the failed calls' warnings stay out. */
const log: Logger = { ...silentLogger, error: (message, error) => console.error(message, error), child: () => log };
const http = createNodeHttpFetch();
const backoff = jitteredBackoffFrom(config.firstRetryMs);
let creates = 0;
const fetch: typeof http.fetch = (url, init) => {
  if (init?.method === 'POST' && /\/v2\/orders$/.test(String(url))) creates++;
  return http.fetch(url, init);
};
const app = await createApp({
  dataDir: config.dataDir,
  database: config.database,
  log,
  startWorkers: true,
  cdek: { fetch, timeoutMs: 1_000, pollDelaysMs: [0, 0, 0], sleep: async () => {} },
  outbox: { leaseMs: config.leaseMs, backoff: (attempts) => Math.min(backoff(attempts), config.maxRetryMs) },
});
process.on('SIGTERM', () =>
  void app.close().finally(() => {
    console.log(`sent ${creates}`);
    process.exit(0);
  }),
);
console.log(`ready ${app.outbox.holder}`);
if (config.create) {
  const shop = await app.desktopContext();
  const create = async (i: number) => {
    const created = await app.dispatch('orders.create', shop, cdekOrder(`${config.create!.prefix}${String(i).padStart(4, '0')}`));
    if (!created.ok) throw new Error(`order ${i} was refused: ${JSON.stringify(created.error)}`);
  };
  // Ten at a time, as several windows and API clients of one shop would.
  for (let i = 1; i <= config.create.count; i += 10) {
    await Promise.all(Array.from({ length: Math.min(10, config.create.count - i + 1) }, (_, k) => create(i + k)));
  }
  console.log(`created ${config.create.count}`);
}

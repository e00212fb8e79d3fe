// A full status refresh of N active orders registered at the sandbox service, in a fresh process:
// total time and the largest stall of the main thread while it runs. The baseline asks the sandbox
// service alone for the same shipments, in the same batches, and writes nothing.
import { parseArgs } from 'node:util';
import { createApp } from '../../electron/core/app';
import { silentLogger } from '../../electron/core/logger';
import type { TrackedShipment } from '../../electron/core/providers/provider';
import { sendToParent } from '../lib/child';
import { days, seedOrders, seedOrdersKysely } from '../lib/seed-orders';
import { startStallProbe } from '../lib/stall-probe';

const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, orders: { type: 'string' }, database: { type: 'string' } } });

interface Refresher {
  refresh(scope?: Record<string, unknown>): Promise<{ checked: number; changed: number; statuses: number; failed: number }>;
}

async function main() {
  const count = Number(values.orders);
  const app = await createApp({ dataDir: values['data-dir']!, database: values.database, log: silentLogger });
  const refresher = (app.services as Record<string, unknown>).statusRefresh as Refresher | undefined;
  if (!refresher || typeof refresher.refresh !== 'function') {
    await sendToParent({ type: 'skip', reason: 'the app has no services.statusRefresh.refresh (electron/core/statuses/refresh*.ts)' });
    await app.close();
    return;
  }
  const { companyId } = await app.desktopContext();
  const now = app.clock.now();
  // Registered over the last 10 days and known to us only as "uploaded": the service has news for most.
  const seedStarted = performance.now();
  const seeding = { companyId, count, now, seed: 777, spanMs: days(10), statuses: 'uploaded', prefix: 'REF-' } as const;
  if (values.database) await seedOrdersKysely(app.db, seeding);
  else seedOrders(app.sqlite, seeding);
  const seedMs = performance.now() - seedStarted;

  // Baseline: the service's answers alone, 250 shipments a call (the refresher's batch).
  const provider = app.providers.get('sandbox-express')!;
  const rows = await app.db
    .selectFrom('orders')
    .select(['id', 'client_number', 'provider_number', 'payload'])
    .where('company_id', '=', companyId)
    .orderBy('id')
    .$narrowType<{ provider_number: string }>()
    .execute();
  const baseProbe = startStallProbe();
  const baseStarted = performance.now();
  let reported = 0;
  for (let i = 0; i < rows.length; i += 250) {
    const shipments: TrackedShipment[] = rows.slice(i, i + 250).map((r) => ({
      providerNumber: r.provider_number,
      request: { companyId, orderId: r.id, clientNumber: r.client_number, order: JSON.parse(r.payload) },
    }));
    const answer = await provider.track(shipments);
    for (const list of answer.values()) reported += list.length;
    await new Promise((resolve) => setImmediate(resolve));
  }
  const baseMs = performance.now() - baseStarted;
  const baseStalls = baseProbe.stop();

  const probe = startStallProbe();
  const started = performance.now();
  const result = await refresher.refresh();
  const ms = performance.now() - started;
  const stalls = probe.stop();
  if (process.env.BENCH_CPU_PROF) console.error(`refresh stall: --window ${stalls.maxStallAtUs}:${Math.ceil(stalls.maxStallMs + 10)}`);
  const statusRows = Number((await app.db.selectFrom('order_statuses').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  await app.close();
  await sendToParent({
    type: 'result',
    ms,
    ...stalls,
    seedMs,
    result,
    statusRows,
    baseline: { ms: baseMs, ...baseStalls, reported },
  });
}

main().then(
  () => process.exit(0),
  async (error) => {
    console.error(error);
    await sendToParent({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) }).catch(() => {});
    process.exit(1);
  },
);

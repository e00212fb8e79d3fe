// Registration of N orders with a delivery service far away (CDEK's fake behind a slow front, started by the
// benchmark): ShipDesk as serve runs it, the outbox started, one CDEK connection with the given parallel
// calls. Reports the time from the first create to the last order holding its CDEK number.
import { parseArgs } from 'node:util';
import { createApp } from '../../electron/core/app';
import { silentLogger } from '../../electron/core/logger';
import { orderCreateSchema } from '../../shared/schemas/order';
import { cdekOrder } from '../../test/fakes/cdek/orders';
import { FAKE_TEST_ACCOUNT } from '../../test/fakes/cdek/server';
import { createNodeHttpFetch } from '../../test/fakes/cdek/node-fetch';
import { sendToParent } from '../lib/child';

const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, orders: { type: 'string' }, url: { type: 'string' }, parallel: { type: 'string' } } });

async function main() {
  const count = Number(values.orders);
  // As many sockets as the connection may have calls out (the platform fetch serve uses has no cap of its own).
  const http = createNodeHttpFetch({ maxSockets: Number(values.parallel) });
  const app = await createApp({ dataDir: values['data-dir']!, log: silentLogger, startWorkers: true, cdek: { fetch: http.fetch } });
  const shop = await app.desktopContext();
  const connected = await app.dispatch('connections.create', shop, {
    providerKey: 'cdek', name: 'Bench', baseUrl: values.url, credentials: FAKE_TEST_ACCOUNT, settings: { parallelCalls: Number(values.parallel) },
  });
  if (!connected.ok) throw new Error(`connecting CDEK failed: ${JSON.stringify(connected.error)}`);
  const orders = Array.from({ length: count }, (_, i) => orderCreateSchema.parse(cdekOrder(`REG-${String(i + 1).padStart(5, '0')}`)));

  const started = performance.now();
  for (const order of orders) await app.services.orders.create(shop, order);
  const createdMs = performance.now() - started;
  const registered = () =>
    (app.sqlite.prepare("SELECT count(*) AS n FROM orders WHERE provider_number IS NOT NULL AND provider_key = 'cdek'").get() as { n: number }).n;
  let ms = 0;
  for (;;) {
    const done = registered();
    if (done >= count) {
      ms = performance.now() - started;
      break;
    }
    if (performance.now() - started > 600_000) throw new Error(`only ${done} of ${count} orders registered after 10 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const failed = (app.sqlite.prepare("SELECT count(*) AS n FROM orders WHERE status_key = 'uploadingError'").get() as { n: number }).n;
  await app.close();
  http.close();
  await sendToParent({ type: 'result', ms, createdMs, failed });
}

main().catch(async (error) => {
  await sendToParent({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exitCode = 1;
});

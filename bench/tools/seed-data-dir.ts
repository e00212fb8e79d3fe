// A shop's data folder with `count` orders of its own (statuses and the sandbox's shipments), for measuring tools on
// a big database by hand, e.g. `npm run migrate-to-postgres` (bench/README.md):
//   npx tsx bench/tools/seed-data-dir.ts <new-folder> 100000
import { createApp } from '../../electron/core/app';
import { silentLogger } from '../../electron/core/logger';
import { days, seedOrders } from '../lib/seed-orders';

const [dir, count = '100000'] = process.argv.slice(2);
if (!dir) {
  console.error('Usage: npx tsx bench/tools/seed-data-dir.ts <folder> [orders]');
  process.exit(2);
}
const app = await createApp({ dataDir: dir, log: silentLogger });
try {
  const { companyId } = await app.desktopContext();
  seedOrders(app.sqlite, { companyId, count: Number(count), now: Date.now(), seed: 16, spanMs: days(365), statuses: 'history' });
} finally {
  await app.close();
}
console.error(`${dir}: ${count} orders`);

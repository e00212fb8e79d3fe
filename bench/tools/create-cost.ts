// The orders store's share of a POST /orders on SQLite, without HTTP: CPU time per order of the group write
// (createOrder, groups as 32 connections make them) and of the registration's write (recordRegistrations),
// on a file database in a temporary folder. CPU time of this process, so less sensitive to the machine's load
// than the create benchmark; still, say the load.
//   npx tsx bench/tools/create-cost.ts [orders=6400] [group=32]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { orderCreateSchema } from '../../shared/schemas/order';
import { openDatabase } from '../../electron/core/store/database';
import { openSqliteStores } from '../../electron/core/store/stores';
import { orderPayload } from '../lib/fixtures';
import { createRng } from '../lib/prng';

const total = Number(process.argv[2] ?? 6400);
const group = Number(process.argv[3] ?? 32);
const dir = mkdtempSync(join(tmpdir(), 'create-cost-'));
const opened = openDatabase({ file: join(dir, 'shipdesk.db') });
const stores = openSqliteStores(opened);
const rng = createRng(20260301);

const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

try {
  const company = await stores.accounts.createCompany({ name: 'Shop', apiToken: 'create-cost', isDesktop: true, createdAt: 1 });
  const payloads = Array.from({ length: total }, (_, i) => orderCreateSchema.parse(orderPayload(rng, `C-${i}`)));
  const ids: number[] = [];
  let createUs = 0;
  for (let i = 0; i < total; i += group) {
    const batch = payloads.slice(i, i + group);
    const started = cpuUs();
    const outcomes = await Promise.all(batch.map((payload) => stores.orders.createOrder({ companyId: company.id, payload, at: 1_000 + i })));
    createUs += cpuUs() - started;
    for (const o of outcomes) if ('orderId' in o) ids.push(o.orderId);
  }
  const jobs = await opened.db.selectFrom('outbox').select(['id', 'order_id']).orderBy('id').execute();
  await opened.db.updateTable('outbox').set({ lease_holder: 'cost' }).execute();
  let registerUs = 0;
  for (let i = 0; i < jobs.length; i += group) {
    const batch = jobs.slice(i, i + group).map((j) => ({
      jobId: j.id, orderId: j.order_id, companyId: company.id, providerNumber: `SBE${String(j.order_id).padStart(9, '0')}`,
      additionalProviderNumber: null, barcode: null, trackingUrl: null, status: { key: 'uploaded' as const, at: 2_000 },
    }));
    const started = cpuUs();
    await stores.orders.recordRegistrations('cost', batch);
    registerUs += cpuUs() - started;
  }
  console.log(JSON.stringify({
    orders: ids.length, group,
    createUsPerOrder: Math.round(createUs / ids.length), registerUsPerOrder: Math.round(registerUs / jobs.length),
    loadAvg: loadavg()[0],
  }));
} finally {
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
}

import { createApp } from '../../electron/core/app';
import { ownerOf } from '../../electron/core/auth/caller';
import { manualClock } from '../../electron/core/clock';
import { silentLogger } from '../../electron/core/logger';
import { readPrintableOrders } from '../../electron/core/print/printable-orders';
import { orderPayload } from '../../test/helpers/payloads';
import { benchTempDir } from '../lib/child';
import type { Benchmark } from '../lib/report';
import { percentile } from '../lib/stats';

/** Median of `runs` timings of `work` (ms), after one untimed warm-up. */
async function timed(runs: number, work: () => Promise<unknown>): Promise<number> {
  await work();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    ms.push(performance.now() - start);
  }
  return percentile(ms, 50);
}

/**
 * Labels of 100 registered orders drawn by ShipDesk into one PDF (100×150 mm, Code 128 + DataMatrix,
 * embedded font) and into one ZPL stream, through the label service as the app and the interface call
 * it. Baseline: reading the same 100 orders from the database (the read the job starts with), same run.
 */
export const labelsBench: Benchmark = {
  name: 'labels',
  title: '100 orders\' labels into one PDF and one ZPL stream, against reading those orders from the database',
  async run(ctx) {
    const orders = ctx.quick ? 10 : 100;
    const runs = ctx.quick ? 2 : 7;
    const data = benchTempDir('labels');
    const app = await createApp({ dataDir: data.dir, clock: manualClock(), log: silentLogger });
    try {
      const shop = ownerOf((await app.desktopContext()).companyId);
      const orderIds: string[] = [];
      for (let i = 0; i < orders; i++) {
        const created = await app.dispatch('orders.create', shop, orderPayload(`LBL-${String(i).padStart(5, '0')}`));
        if (!created.ok) throw new Error(JSON.stringify(created.error));
        orderIds.push((created.value as { orderId: string }).orderId);
      }
      await app.outbox.drain();
      ctx.log(`labels: ${orders} orders registered`);
      const labels = app.services.labels;
      const readMs = await timed(runs, () => readPrintableOrders(app.stores.orders, shop, orderIds));
      const pdfMs = await timed(runs, () => labels.print(shop, { orderIds, format: 'pdf', size: '100x150', startQuarter: 1 }));
      const zplMs = await timed(runs, () => labels.print(shop, { orderIds, format: 'zpl', size: '100x150', startQuarter: 1 }));
      const a4Ms = await timed(runs, () => labels.print(shop, { orderIds, format: 'pdf', size: 'A4', startQuarter: 1 }));
      const pdf = await labels.print(shop, { orderIds, format: 'pdf', size: '100x150', startQuarter: 1 });
      if (pdf.printed !== orders) throw new Error(`printed ${pdf.printed} of ${orders}: ${JSON.stringify(pdf.failedOrders.slice(0, 3))}`);
      return {
        params: { orders, runs, layout: '100x150 mm, one label per order' },
        figures: { pdfMs, zplMs, a4Ms, pdfBytes: pdf.file!.bytes.length, pdfVsRead: pdfMs / readMs, zplVsRead: zplMs / readMs },
        baseline: { what: `reading the ${orders} orders from the database (one company-scoped query, payloads parsed)`, ms: readMs },
        ratio: pdfMs / readMs,
        ratioOf: 'PDF ms ÷ database read ms',
        goals: [
          { figure: 'pdfMs', op: '<=', limit: 1500 },
          { figure: 'zplMs', op: '<=', limit: 300 },
        ],
        notes: ['median of the runs after one warm-up; the first job of a process also loads the font and bwip-js'],
      };
    } finally {
      await app.close();
      data.remove();
    }
  },
};

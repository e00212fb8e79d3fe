import { orderCreateSchema } from '../../../shared/schemas/order';
import { orderPayload } from '../../../test/helpers/payloads';
import { createTestApp } from '../../../test/helpers/test-app';
import { createOrderWriter, prepareOrder } from './order-writer';

// The import writes orders with prepared statements in batches; POST /orders writes them one by one
// through the orders service. A shop must not be able to tell the two apart: same columns, same first
// status, same outbox job. When the orders service changes what it stores, this test says what to follow.

describe('an imported order is stored exactly like one from POST /orders', () => {
  it('same order row, same first status, same create job', async () => {
    const t = await createTestApp();
    try {
      const { app, shop } = t;
      const viaService = await app.services.orders.create(shop, orderCreateSchema.parse(orderPayload('SAME-1')));
      const writer = createOrderWriter({ db: app.db, sqlite: app.sqlite, events: app.events, outbox: app.outbox });
      const payload = orderCreateSchema.parse(orderPayload('SAME-2'));
      const { outcomes: [outcome] } = await writer.writeSlice(shop, null, [{ seq: 0, row: 3, lastRow: 4, order: prepareOrder(payload) }], app.clock.now(), () => '');
      if (!('orderId' in outcome)) throw new Error('not created');

      const order = (id: number) => app.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const statuses = (id: number) => app.db.selectFrom('order_statuses').selectAll().where('order_id', '=', id).execute();
      const jobs = (id: number) => app.db.selectFrom('outbox').selectAll().where('order_id', '=', id).execute();
      const a = await order(Number(viaService.orderId));
      const b = await order(outcome.orderId);
      const same = <T extends object>(row: T, drop: string[]) => Object.fromEntries(Object.entries(row).filter(([k]) => !drop.includes(k)));
      expect(same(b, ['id', 'client_number', 'payload'])).toEqual(same(a, ['id', 'client_number', 'payload']));
      expect({ ...JSON.parse(b.payload), order: { ...JSON.parse(b.payload).order, clientNumber: 'SAME-1' } }).toEqual(JSON.parse(a.payload));
      expect((await statuses(outcome.orderId)).map((s) => same(s, ['id', 'order_id']))).toEqual((await statuses(a.id)).map((s) => same(s, ['id', 'order_id'])));
      expect((await jobs(outcome.orderId)).map((j) => same(j, ['id', 'order_id']))).toEqual((await jobs(a.id)).map((j) => same(j, ['id', 'order_id'])));
      // and the outbox takes it like any other order
      await app.outbox.drain();
      expect((await order(outcome.orderId)).provider_number).toMatch(/^SBE/);
    } finally {
      await t.close();
    }
  });

  it('a clientNumber already live in the company is reported with its order, not written twice', async () => {
    const t = await createTestApp();
    try {
      const { app, shop } = t;
      const existing = await app.services.orders.create(shop, orderCreateSchema.parse(orderPayload('TAKEN')));
      const writer = createOrderWriter({ db: app.db, sqlite: app.sqlite, events: app.events, outbox: app.outbox });
      const payload = orderCreateSchema.parse(orderPayload('TAKEN'));
      const { outcomes } = await writer.writeSlice(shop, null, [{ seq: 7, row: 3, lastRow: 3, order: prepareOrder(payload) }], app.clock.now(), () => '');
      expect(outcomes).toEqual([{ seq: 7, duplicateOf: Number(existing.orderId) }]);
      expect(await writer.liveOrderIds(shop, ['TAKEN', 'FREE'])).toEqual(new Map([['TAKEN', Number(existing.orderId)]]));
    } finally {
      await t.close();
    }
  });
});

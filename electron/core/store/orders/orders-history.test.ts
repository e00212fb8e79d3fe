import { afterEach, describe, expect, it } from 'vitest';
import { orderCreateSchema } from '../../../../shared/schemas/order';
import { orderPayload } from '../../../../test/helpers/payloads';
import type { Stores } from '../stores';
import { newImport, testEngines, twoCompanies } from '../test-engines';
import type { OrdersStore, StatusRecord, StoredOrder } from './orders-store';
import { prepareOrder } from './prepared-order';

/**
 * The orders store's import write, tracking write and status reads, on the interface, on every engine:
 * one writer of orders, their statuses and jobs, whichever path the order came by.
 */

const payload = (clientNumber: string) => orderCreateSchema.parse(orderPayload(clientNumber));
const imported = (seq: number, clientNumber: string) => ({ seq, row: seq + 2, lastRow: seq + 2, order: prepareOrder(payload(clientNumber)) });
const without = <T extends object>(record: T, keys: string[]) => Object.fromEntries(Object.entries(record).filter(([k]) => !keys.includes(k)));

describe.each(testEngines)('the orders store: imports, tracking, history ($name)', ({ open }) => {
  let opened: { stores: Stores; close(): Promise<void> } | undefined;
  afterEach(() => opened?.close());

  async function withShops() {
    opened = await open();
    const { shop, other } = await twoCompanies(opened.stores);
    return { store: opened.stores.orders, stores: opened.stores, shop: shop.id, other: other.id };
  }

  const created = async (store: OrdersStore, companyId: number, clientNumber: string, at = 1_000) => {
    const outcome = await store.createOrder({ companyId, payload: payload(clientNumber), at });
    if (!('orderId' in outcome)) throw new Error(`${clientNumber} was not created`);
    return outcome.orderId;
  };
  const historyOf = async (store: OrdersStore, companyId: number, orderId: number) =>
    (await store.statusHistory(companyId, [orderId], [], { offset: 0, limit: 100 })).statuses;

  it('stores an imported order exactly as a created one: same order, same first status, same create job', async () => {
    const { store, shop } = await withShops();
    const viaCreate = await created(store, shop, 'SAME-1', 5_000);
    const { outcomes, consumed } = await store.createImportedOrders({ companyId: shop, importId: null, items: [imported(0, 'SAME-2')], at: 5_000, duplicateError: () => 'dup' });
    expect(consumed).toBe(1);
    const [outcome] = outcomes;
    if (!('orderId' in outcome)) throw new Error('not created');
    expect(outcome).toEqual({ seq: 0, orderId: expect.any(Number), created: 5_000 });

    const a = (await store.findOrderWithJobs(shop, viaCreate))!;
    const b = (await store.findOrderWithJobs(shop, outcome.orderId))!;
    const order = (o: StoredOrder) => without(o, ['id', 'clientNumber', 'payload']);
    expect(order(b.order)).toEqual(order(a.order));
    expect(b.order.payload).toEqual(payload('SAME-2'));
    expect(b.jobs.map((j) => without(j, ['id', 'orderId']))).toEqual(a.jobs.map((j) => without(j, ['id', 'orderId'])));
    const status = (s: StatusRecord) => without(s, ['id', 'orderId']);
    expect((await historyOf(store, shop, outcome.orderId)).map(status)).toEqual((await historyOf(store, shop, viaCreate)).map(status));
  });

  it('reports a clientNumber live already (in the company or earlier in the write) as a duplicate, and records every item in the import', async () => {
    const { store, stores, shop, other } = await withShops();
    const existing = await created(store, shop, 'TAKEN');
    await created(store, other, 'FREE'); // another company's number is no duplicate
    const importId = await stores.imports.createImport(newImport(shop));
    const { outcomes } = await store.createImportedOrders({
      companyId: shop,
      importId,
      items: [imported(0, 'TAKEN'), imported(1, 'FREE'), imported(2, 'FREE'), { seq: 3, row: 5, lastRow: 6, clientNumber: 'BAD', error: '{"bad":true}' }],
      at: 2_000,
      duplicateError: (o, id) => JSON.stringify({ duplicate: o.order.clientNumber, of: id }),
    });
    expect([...outcomes].sort((x, y) => x.seq - y.seq)).toEqual([{ seq: 0, duplicateOf: existing }, { seq: 1, orderId: expect.any(Number), created: 2_000 }, { seq: 2, duplicateOf: 0 }]);
    expect(await store.liveOrderIds(shop, ['TAKEN', 'FREE', 'NONE'])).toEqual(new Map([['TAKEN', existing], ['FREE', outcomes.flatMap((o) => ('orderId' in o ? [o.orderId] : []))[0]]]));
    // what the answer reads back: the services' numbers and statuses of the company's orders only
    const freeId = outcomes.flatMap((o) => ('orderId' in o ? [o.orderId] : []))[0];
    const theirs = await created(store, other, 'THEIRS');
    expect(await store.registrationsOf(shop, [freeId, theirs])).toEqual(new Map([[freeId, { providerNumber: null, statusKey: 'uploading' }]]));

    const rows = await stores.imports.resultRows(importId, 0, 10);
    expect(rows.map((r) => [r.clientNumber, r.orderId !== null, r.failure])).toEqual([
      ['TAKEN', false, { duplicate: 'TAKEN', of: existing }],
      ['FREE', true, null],
      ['FREE', false, { duplicate: 'FREE', of: 0 }],
      ['BAD', false, { bad: true }],
    ]);
    await store.recordImportFailures(importId, [{ seq: 4, row: 7, lastRow: 7, clientNumber: 'LATE', error: '{"canceled":true}' }]);
    expect((await stores.imports.counts(importId)).recorded).toBe(5);
  });

  it('holds an import\'s create jobs until they are released, and releases only the company\'s', async () => {
    const { store, shop, other } = await withShops();
    const write = (companyId: number, n: string) =>
      store.createImportedOrders({ companyId, importId: null, items: [imported(0, n)], at: 1_000, duplicateError: () => '', holdMs: 60_000 });
    const [mine] = (await write(shop, 'H-1')).outcomes as { orderId: number }[];
    const [theirs] = (await write(other, 'H-2')).outcomes as { orderId: number }[];
    expect(await store.dueJobs(2_000, 10, [])).toEqual([]);
    await store.releaseHeldCreates(shop, Math.min(mine.orderId, theirs.orderId), Math.max(mine.orderId, theirs.orderId), 2_000);
    expect((await store.dueJobs(2_000, 10, [])).map((j) => j.orderId)).toEqual([mine.orderId]);
  });

  it('records what tracking found: new statuses, completed ones, the order\'s current status and items bought out; a moved order is left', async () => {
    const { store, shop } = await withShops();
    const id = await created(store, shop, 'T-1');
    const moved = await created(store, shop, 'T-2');
    const unregistered = await created(store, shop, 'T-3');
    const claimed = await store.claimJobs('h', (await store.dueJobs(1_500, 10, [])).filter((j) => j.orderId !== unregistered), 1_500, () => 60_000, 60_000);
    await store.recordRegistrations('h', claimed.map((j) => ({
      jobId: j.id, orderId: j.orderId, companyId: shop, providerNumber: `P${j.orderId}`, additionalProviderNumber: null, barcode: null, trackingUrl: null, status: { key: 'uploaded' as const, at: 2_000 },
    })));

    const tracked = await store.trackedOrders({ companyId: shop, leaveOut: ['uploading', 'delivered'], afterId: 0, limit: 10 });
    expect(tracked.map((o) => [o.id, o.statusKey, o.providerNumber, o.payload.order.clientNumber])).toEqual([[id, 'uploaded', `P${id}`, 'T-1'], [moved, 'uploaded', `P${moved}`, 'T-2']]);
    expect((await store.trackedOrders({ companyId: shop, orderIds: [moved], leaveOut: [], afterId: 0, limit: 10 })).map((o) => o.id)).toEqual([moved]);
    expect(await store.trackedOrders({ leaveOut: ['uploaded', 'uploading'], afterId: 0, limit: 10 })).toEqual([]);
    await store.appendStatus(moved, shop, { key: 'problem', at: 2_500 }); // moved since tracking read it
    const known = await store.statusesOf([id]);
    expect(known.map((s) => s.key)).toEqual(['uploading', 'uploaded']);
    const uploaded = known[1];

    const applied = await store.recordTracking(
      [
        { orderId: id, companyId: shop, fromKey: 'uploaded', append: [{ key: 'onWay', at: 3_000, description: 'В пути', providerCode: 'W' }], complete: [{ statusId: uploaded.id, status: { key: 'uploaded', at: 1_900, providerCode: 'U' } }], quantityDelivered: { A: 1 } },
        { orderId: moved, companyId: shop, fromKey: 'uploaded', append: [{ key: 'onWay', at: 3_000 }], complete: [] },
      ],
      4_000,
    );
    expect(applied.map((c) => c.orderId)).toEqual([id]);
    const order = (await store.findOrder(shop, id))!;
    expect(order).toMatchObject({ statusKey: 'onWay', statusDescription: 'В пути', statusDescriptionMessage: null, statusChangedAt: 4_000, quantityDelivered: { A: 1 } });
    const history = await store.statusesOf([id]);
    expect(history.map((s) => [s.key, s.createdAt, s.createdProvider, s.providerCode])).toEqual([
      ['uploading', 1_000, null, null],
      ['uploaded', 2_000, 1_900, 'U'],
      ['onWay', 4_000, 3_000, 'W'],
    ]);
    expect((await store.statusesOf([moved])).map((s) => s.key)).toEqual(['uploading', 'uploaded', 'problem']);
  });

  it('answers the status reads for the company only: current, by clientNumber, changed since, history pages, lists by range and filter', async () => {
    const { store, shop, other } = await withShops();
    const a = await created(store, shop, 'R-1', 1_000);
    const b = await created(store, shop, 'R-2', 1_000);
    const theirs = await created(store, other, 'R-1', 1_000);
    await store.appendStatus(a, shop, { key: 'uploaded', at: 2_000 });
    await store.appendStatus(a, shop, { key: 'onWay', at: 3_000 });

    expect([...(await store.latestStatuses(shop, [a, b, theirs]))].map(([id, s]) => [id, s.key])).toEqual(expect.arrayContaining([[a, 'onWay'], [b, 'uploading']]));
    expect((await store.latestStatuses(shop, [theirs])).size).toBe(0);
    expect((await store.findOrderByClientNumber(shop, 'R-1'))?.id).toBe(a);
    expect((await store.findOrderByClientNumber(other, 'R-2'))).toBeUndefined();
    expect((await store.changedSince(shop, 1_500)).map((p) => [p.order.id, p.status.key])).toEqual([[a, 'onWay']]);

    const page = await store.statusHistory(shop, [a], [], { offset: 0, limit: 2 });
    expect([page.total, page.statuses.map((s) => s.key)]).toEqual([3, ['onWay', 'uploaded']]);
    const filtered = await store.statusHistory(shop, [a], [{ field: 'created', spec: { type: 'int' }, op: '>', values: [2_500] }], { offset: 0, limit: 10 });
    expect(filtered.statuses.map((s) => s.key)).toEqual(['onWay']);
    expect((await store.statusHistory(other, [a], [], { offset: 0, limit: 10 })).total).toBe(0);

    const list = await store.statusHistoryList(shop, { from: 0 }, [{ field: 'clientNumber', spec: { type: 'text' }, op: '=', values: ['r-1'] }], { offset: 0, limit: 10 });
    expect(list.total).toBe(1);
    expect(list.rows.map((r) => [r.order.id, r.statuses.map((s) => s.key)])).toEqual([[a, ['onWay', 'uploaded', 'uploading']]]);
    expect((await store.statusHistoryList(shop, { after: 2_500 }, [], { offset: 0, limit: 10 })).rows.map((r) => r.order.id)).toEqual([a]);

    const [news] = (await store.statusHistory(shop, [a], [], { offset: 0, limit: 1 })).statuses;
    expect((await store.statusWithOrder(shop, news.id))?.order.clientNumber).toBe('R-1');
    expect(await store.statusWithOrder(other, news.id)).toBeUndefined();
    expect((await store.statusesById([news.id, 999_999])).get(news.id)).toMatchObject({ orderId: a, key: 'onWay', companyId: shop });
  });
});

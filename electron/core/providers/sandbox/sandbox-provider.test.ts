import type { Point } from '../../../../shared/schemas/lists';
import { orderCreateSchema, type OrderCreateInput } from '../../../../shared/schemas/order';
import { orderPayload } from '../../../../test/helpers/payloads';
import { pointOf, sandboxPayload } from '../../../../test/helpers/sandbox-orders';
import { createTestApp } from '../../../../test/helpers/test-app';
import { createReferenceData, type StoredReferenceData } from '../../orders/reference-data';
import { ProviderRejectedError } from '../provider';
import { intakeRefusals } from './intake';
import { partialDelivery } from './sandbox-provider';
import { outcomeFor, stepsFor } from './timeline';

const hour = 3_600_000;

describe('the sandbox delivery services', () => {
  let env: Awaited<ReturnType<typeof createTestApp>>;
  beforeEach(async () => {
    env = await createTestApp();
  });
  afterEach(() => env.close());

  /** Creates an order through the app and lets the outbox send it; answers its status row. */
  async function send(input: OrderCreateInput) {
    const { orderId } = await env.app.services.orders.create(env.shop, orderCreateSchema.parse(input));
    await env.app.outbox.drain();
    const row = await env.app.db.selectFrom('orders').selectAll().where('id', '=', Number(orderId)).executeTakeFirstOrThrow();
    const status = await env.app.db.selectFrom('order_statuses').selectAll().where('order_id', '=', row.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    return { row, status };
  }

  describe('refuse bad data after accepting it: uploadingError, errorCode 200, a clear description', () => {
    it('a weight over the tariff limit', async () => {
      const { row, status } = await send(orderPayload('S-1', (o) => ((o.order.weight = 60_000), (o.places[0].weight = 60_000))));
      expect(row.status_key).toBe('uploadingError');
      expect(status.error_code).toBe('200');
      expect(row.status_description).toBe('sandbox-express refused the order: order.weight: 60000 g is over the limit of tariff 103 (50000 g)');
      expect(row.provider_number).toBeNull();
    });

    it("a parcel over a locker's weight or cell size", async () => {
      const locker = await pointOf(env.app.db, 'sandbox-lockers', { city: 'Санкт-Петербург', type: 2, maxSizeA: 'set' });
      const heavy = await send(
        await sandboxPayload(env.app.db, 'sandbox-lockers', 'S-2', (o) => {
          o.order.weight = o.places[0].weight = locker.maxWeight! + 500;
          o.places[0].items.forEach((i) => (i.weight = undefined));
        }),
      );
      expect(heavy.row.status_description).toMatch(/over the point's limit of \d+ g/);
      const big = await send(await sandboxPayload(env.app.db, 'sandbox-lockers', 'S-3', (o) => (o.places[0].length = locker.maxSizeA! + 10)));
      expect(big.row.status_key).toBe('uploadingError');
      expect(big.row.status_description).toMatch(/does not fit the point's/);
    });

    it("cash on delivery over a point's limit", async () => {
      const point = await pointOf(env.app.db, 'sandbox-express', { city: 'Санкт-Петербург', type: 1, maxCod: 'set' });
      const { row } = await send(
        orderPayload('S-4', (o) => {
          Object.assign(o.order, { tariffId: 104, deliveryType: 2, pointOutId: point.id });
          o.cost.codCost = point.maxCod! + 1000;
        }),
      );
      expect(row.status_description).toMatch(/cash on delivery of \d+ ₽ is over the point's limit/);
    });

    it('a recipient city the service does not serve: no points there, or no couriers', async () => {
      const toPoint = await send(await sandboxPayload(env.app.db, 'sandbox-post', 'S-5', (o) => (o.recipient.city = 'Урюпинск')));
      expect(toPoint.row.status_description).toBe('sandbox-post refused the order: recipient.city: sandbox-post has no pickup points in Урюпинск');
      const door = await send(orderPayload('S-6', (o) => (o.recipient.city = 'Омск')));
      expect(door.row.status_description).toBe('sandbox-express refused the order: recipient.city: sandbox-express does not deliver to the door in Омск');
    });

    it('a city found in addressString counts; a city spelled with ё or in another case too', async () => {
      const address = await send(orderPayload('S-7', (o) => ((o.recipient.city = undefined), (o.recipient.addressString = 'г. Казань, ул. Баумана, 1'))));
      expect(address.row.status_key).toBe('uploaded');
      const lower = await send(orderPayload('S-8', (o) => (o.recipient.city = 'санкт-петербург')));
      expect(lower.row.status_key).toBe('uploaded');
    });

    it('a pickup point that takes no cash (checked with a point the data does not have)', async () => {
      const real = (await env.app.stores.reference.findPoint('sandbox-express', (await pointOf(env.app.db, 'sandbox-express', { city: 'Москва' })).id))!;
      const noCash: Point = { ...real, cod: 0 };
      const reference: StoredReferenceData = { ...createReferenceData(env.app.stores.reference), point: async () => noCash };
      const order = orderCreateSchema.parse(
        orderPayload('S-9', (o) => {
          Object.assign(o.order, { tariffId: 104, deliveryType: 2, pointOutId: real.id });
          o.recipient.city = 'Москва';
        }),
      );
      expect(await intakeRefusals('sandbox-express', order, reference)).toMatchObject([
        { field: 'order.pointOutId', message: `point ${real.id} does not take cash on delivery` },
      ]);
    });
  });

  describe('their books', () => {
    const request = async (key: 'sandbox-express' | 'sandbox-post' | 'sandbox-lockers', clientNumber: string) => ({
      companyId: env.shop.companyId,
      orderId: 1,
      clientNumber,
      order: orderCreateSchema.parse(await sandboxPayload(env.app.db, key, clientNumber)),
    });

    it('express updates and cancels, lockers only cancel, post only deletes', () => {
      const [express, post, lockers] = ['sandbox-express', 'sandbox-post', 'sandbox-lockers'].map((k) => env.app.providers.get(k)!);
      expect([!!express.update, !!express.cancel, !!express.remove]).toEqual([true, true, false]);
      expect([!!lockers.update, !!lockers.cancel, !!lockers.remove]).toEqual([false, true, false]);
      expect([!!post.update, !!post.cancel, !!post.remove]).toEqual([false, false, true]);
    });

    it('a canceled or deleted shipment is gone for find; registering the clientNumber again gives a new number', async () => {
      const post = env.app.providers.get('sandbox-post')!;
      const req = await request('sandbox-post', 'B-1');
      const first = await post.register(req);
      expect(await post.find(req)).toMatchObject({ providerNumber: first.providerNumber });
      await post.remove!(first.providerNumber, req);
      await post.remove!(first.providerNumber, req); // a re-sent delete succeeds
      expect(await post.find(req)).toBeNull();
      const second = await post.register(req);
      expect(second.providerNumber).not.toBe(first.providerNumber);
      const books = await env.app.db.selectFrom('sandbox_shipments').select(['provider_number', 'removed_at']).orderBy('provider_number').execute();
      expect(books).toEqual([
        { provider_number: first.providerNumber, removed_at: env.clock.now() },
        { provider_number: second.providerNumber, removed_at: null },
      ]);
    });

    it('once the parcel is handed over it is no longer changed or canceled', async () => {
      const express = env.app.providers.get('sandbox-express')!;
      const req = await request('sandbox-express', 'B-2');
      const { providerNumber } = await express.register(req);
      await express.update!(providerNumber, req);
      env.clock.advance(5 * hour);
      await expect(express.update!(providerNumber, req)).rejects.toThrow(/has already been handed over/);
      await expect(express.cancel!(providerNumber, req)).rejects.toBeInstanceOf(ProviderRejectedError);
    });

    it('reports a deterministic timeline, stopped by a cancel', async () => {
      const lockers = env.app.providers.get('sandbox-lockers')!;
      const req = await request('sandbox-lockers', 'B-3');
      const { providerNumber } = await lockers.register(req);
      env.clock.advance(6 * hour);
      await lockers.cancel!(providerNumber, req).catch(() => {}); // handed over: refused, the timeline goes on
      env.clock.advance(20 * hour);
      const track = async () => (await lockers.track([{ providerNumber, request: req }])).get(providerNumber)!.map((s) => s.key);
      expect(await track()).toEqual(['uploaded', 'onPointIn', 'onWay']);
      const again = await request('sandbox-lockers', 'B-4');
      const other = await lockers.register(again);
      await lockers.cancel!(other.providerNumber, again);
      env.clock.advance(100 * hour);
      expect((await lockers.track([{ providerNumber: other.providerNumber, request: again }])).get(other.providerNumber)!.map((s) => s.key)).toEqual([
        'uploaded',
        'deliveryCanceled',
      ]);
    });
  });

  describe('timelines', () => {
    it('door deliveries go through a courier, point deliveries wait at the point', () => {
      const number = ['SBE1', 'SBE2', 'SBE3', 'SBE4', 'SBE5'].find((n) => outcomeFor(n) === 'delivered')!;
      expect(stepsFor(number, { deliveryType: 1, units: 3 }).map(([k]) => k)).toEqual(['uploaded', 'onPointIn', 'onWay', 'onPointOut', 'delivering', 'delivered']);
      expect(stepsFor(number, { deliveryType: 2, units: 3 }).map(([k]) => k)).toEqual(['uploaded', 'onPointIn', 'onWay', 'onPointOut', 'readyForRecipient', 'delivered']);
    });

    it('most parcels are delivered, some come back whole or partly', () => {
      const outcomes = Array.from({ length: 2000 }, (_, i) => outcomeFor(`SBX${i}`));
      const share = (o: string) => outcomes.filter((x) => x === o).length / outcomes.length;
      expect(share('delivered')).toBeGreaterThan(0.7);
      expect(share('returned')).toBeGreaterThan(0.05);
      expect(share('partialReturn')).toBeGreaterThan(0.03);
    });

    it('a single unit cannot come back partly: it comes back whole', () => {
      const number = Array.from({ length: 500 }, (_, i) => `SBP${i}`).find((n) => outcomeFor(n) === 'partialReturn')!;
      expect(stepsFor(number, { deliveryType: 2, units: 1 }).at(-1)![0]).toBe('returned');
      expect(stepsFor(number, { deliveryType: 2, units: 2 }).at(-1)![0]).toBe('partialReturn');
    });

    it('on a partial return the recipient keeps all but one unit of the last item line', () => {
      expect(partialDelivery(orderCreateSchema.parse(orderPayload('P-1')))).toEqual({ 'TS-01': 2, 'CP-02': 0 });
    });
  });
});

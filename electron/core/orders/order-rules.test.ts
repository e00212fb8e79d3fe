import { orderCreateSchema, type OrderCreateInput } from '../../../shared/schemas/order';
import { orderPayload } from '../../../test/helpers/payloads';
import { pointOf, sandboxPayload } from '../../../test/helpers/sandbox-orders';
import { createTestApp } from '../../../test/helpers/test-app';
import { withQuantityDelivered } from './order-detail';
import { checkCod, checkOrder, checkPlaces } from './order-rules';
import { createReferenceData } from './reference-data';

const parse = (input: OrderCreateInput) => orderCreateSchema.parse(input);

describe('order rules checked on create and update (040002)', () => {
  describe('places and items', () => {
    it('an order may weigh more than its places (packaging), not clearly less: 5 %, at least 50 g', () => {
      expect(checkPlaces(parse(orderPayload('R-1', (o) => (o.order.weight = 1240))))).toEqual([]);
      expect(checkPlaces(parse(orderPayload('R-1', (o) => (o.order.weight = 2400))))).toEqual([]);
      expect(checkPlaces(parse(orderPayload('R-1', (o) => (o.order.weight = 1150))))).toEqual([]);
      expect(checkPlaces(parse(orderPayload('R-1', (o) => (o.order.weight = 1100))))).toMatchObject([
        { field: 'order.weight', message: 'must not be less than the places weigh: they weigh 1200 g in total, the order says 1100 g' },
      ]);
      const twoPlaces = parse(
        orderPayload('R-1', (o) => {
          o.order.weight = 2000;
          o.places.push({ weight: 800, items: [{ description: 'Шарф', quantity: 1 }] });
        }),
      );
      expect(checkPlaces(twoPlaces)).toEqual([]);
    });

    it('items cannot weigh more than their place', () => {
      const heavy = parse(orderPayload('R-1', (o) => (o.places[0].items[0].weight = 800)));
      expect(checkPlaces(heavy)).toMatchObject([{ field: 'places.0.weight', message: 'is less than its items weigh (1800 g)' }]);
    });

    it('an item without a weight leaves the place unchecked', () => {
      const unknown = parse(orderPayload('R-1', (o) => (o.places[0].items[0].weight = undefined)));
      expect(checkPlaces(unknown)).toEqual([]);
    });

    it('quantities must be whole and positive (schema)', () => {
      const result = orderCreateSchema.safeParse(orderPayload('R-1', (o) => (o.places[0].items[0].quantity = 0)));
      expect(result.success).toBe(false);
    });
  });

  describe('cash on delivery', () => {
    it('codCost must cover the goods plus deliveryCost, to the kopeck', () => {
      expect(checkCod(parse(orderPayload('R-1')))).toEqual([]); // 2 × 1000 + 500 + 490.50 = 2990.50
      expect(checkCod(parse(orderPayload('R-1', (o) => (o.cost.codCost = 2990.49))))).toMatchObject([
        { field: 'cost.codCost', message: 'must cover the goods (2500.00) plus deliveryCost (490.50) = 2990.50' },
      ]);
      expect(checkCod(parse(orderPayload('R-1', (o) => (o.cost.codCost = 3500))))).toEqual([]); // more is the shop's business
    });

    it('a prepaid order (codCost 0) is not checked against item costs', () => {
      expect(checkCod(parse(orderPayload('R-1', (o) => (o.cost = { assessedCost: 2500, codCost: 0, deliveryCost: 490.5 }))))).toEqual([]);
    });

    it('items without a cost count as zero', () => {
      const noCosts = parse(orderPayload('R-1', (o) => o.places[0].items.forEach((i) => (i.cost = undefined))));
      expect(checkCod(noCosts)).toEqual([]);
    });
  });

  describe('against the delivery service and the reference data', () => {
    let env: Awaited<ReturnType<typeof createTestApp>>;
    beforeAll(async () => {
      env = await createTestApp();
    });
    afterAll(() => env.close());

    const check = async (input: OrderCreateInput) => {
      const order = parse(input);
      return checkOrder(order, env.app.providers.get(order.order.providerKey), createReferenceData(env.app.stores.reference));
    };

    it('a good order of each sandbox service passes', async () => {
      for (const key of ['sandbox-express', 'sandbox-post', 'sandbox-lockers'] as const) {
        expect(await check(await sandboxPayload(env.app.db, key, 'R-OK'))).toEqual([]);
      }
    });

    it('an unknown delivery service', async () => {
      expect(await check(orderPayload('R-1', (o) => (o.order.providerKey = 'nope')))).toMatchObject([
        { field: 'order.providerKey', message: 'unknown delivery service nope' },
      ]);
    });

    it('the tariff must belong to the service and match the delivery and pickup type', async () => {
      expect(await check(orderPayload('R-1', (o) => (o.order.tariffId = 201)))).toMatchObject([
        { field: 'order.tariffId', message: 'tariff 201 is not a tariff of sandbox-express' },
      ]);
      expect(await check(orderPayload('R-1', (o) => (o.order.tariffId = 102)))).toMatchObject([
        { field: 'order.pickupType', message: 'tariff 102 expects the order at the warehouse (2)' },
      ]);
      const toPoint = await sandboxPayload(env.app.db, 'sandbox-post', 'R-1', (o) => (o.order.tariffId = 202));
      expect(await check(toPoint)).toMatchObject([{ field: 'order.deliveryType', message: 'tariff 202 delivers to the door (1)' }]);
    });

    it('the pickup point must exist and belong to the service', async () => {
      const express = await pointOf(env.app.db, 'sandbox-express');
      const foreign = await sandboxPayload(env.app.db, 'sandbox-post', 'R-1', (o) => (o.order.pointOutId = express.id));
      expect(await check(foreign)).toMatchObject([{ field: 'order.pointOutId', message: `${express.id} is not a pickup point of sandbox-post` }]);
      const unknown = await sandboxPayload(env.app.db, 'sandbox-post', 'R-1', (o) => (o.order.pointOutId = 999_999_999));
      expect(await check(unknown)).toMatchObject([{ field: 'order.pointOutId', message: '999999999 is not a pickup point of sandbox-post' }]);
    });

    it('a service that takes no cash on delivery, or does not collect from the door', async () => {
      const cod = await sandboxPayload(env.app.db, 'sandbox-lockers', 'R-1', (o) => (o.cost = { assessedCost: 2500, codCost: 100 }));
      expect(await check(cod)).toContainEqual(expect.objectContaining({ field: 'cost.codCost', message: 'sandbox-lockers does not take cash on delivery' }));
      const door = await sandboxPayload(env.app.db, 'sandbox-post', 'R-1', (o) => (o.order.pickupType = 1));
      expect(await check(door)).toEqual(
        expect.arrayContaining([expect.objectContaining({ field: 'order.pickupType', message: "sandbox-post does not collect from the client's door" })]),
      );
    });

    it('extraParams must name additional services of the service, with values of their type', async () => {
      expect(await check(orderPayload('R-1', (o) => (o.extraParams = { insurance: true, courierWaitMinutes: '30', cargoType: 'fragile' })))).toEqual([]);
      const errors = await check(orderPayload('R-1', (o) => (o.extraParams = { storageDays: 5, insurance: 'yes' })));
      expect(errors).toMatchObject([
        { field: 'extraParams.storageDays', message: expect.stringMatching(/^sandbox-express has no additional service storageDays \(it has: insurance, /) },
        { field: 'extraParams.insurance', message: 'must be true or false (1 or 0)' },
      ]);
    });

    it('extraParams values become their service type, whether sent as JSON values or as text', async () => {
      const asText = parse(orderPayload('R-1', (o) => (o.extraParams = { insurance: '1', courierWaitMinutes: '30', cargoType: 'fragile' })));
      expect(await checkOrder(asText, env.app.providers.get('sandbox-express'), createReferenceData(env.app.stores.reference))).toEqual([]);
      expect(asText.extraParams).toEqual({ insurance: true, courierWaitMinutes: 30, cargoType: 'fragile' });
      expect(await check(orderPayload('R-1', (o) => (o.extraParams = { courierWaitMinutes: '30.5' })))).toMatchObject([
        { field: 'extraParams.courierWaitMinutes', message: 'must be a whole number' },
      ]);
    });
  });
});

describe('quantityDelivered on the order', () => {
  const places = parse(orderPayload('Q-1')).places;

  it('is absent while the service has not reported a partial delivery', () => {
    expect(withQuantityDelivered(places, null)[0].items[0]).not.toHaveProperty('quantityDelivered');
  });

  it('spreads the reported counts over the items; an item not named was not bought', () => {
    const items = withQuantityDelivered(places, { 'TS-01': 1 })[0].items;
    expect(items.map((i) => i.quantityDelivered)).toEqual([1, 0]);
  });

  it('lines with the same articul share the count, none above its own quantity', () => {
    const twice = parse(orderPayload('Q-2', (o) => o.places[0].items.push({ description: 'Футболка', articul: 'TS-01', quantity: 2 }))).places;
    expect(withQuantityDelivered(twice, { 'TS-01': 3, 'CP-02': 1 })[0].items.map((i) => i.quantityDelivered)).toEqual([2, 1, 1]);
  });
});

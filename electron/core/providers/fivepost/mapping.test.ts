import { readFileSync } from 'node:fs';
import { orderCreateSchema } from '../../../../shared/schemas/order';
import { statusKeys } from '../../../../shared/status-keys';
import { boxberryOrder } from '../../../../test/fakes/boxberry/orders';
import { fitsPoint, fivePostError, fivePostStatusKey, fivePostStatusKeys, isJwtRefusal, pointFromFivePost, toFivePostOrder, zonePriceKopecks } from './mapping';

/** Fixtures are written from carriers-ru.md and lapaygroup/fivepost-sdk; no network is used. */
const fixture = (name: string): any => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const order = (patch: Parameters<typeof boxberryOrder>[2] = () => {}) => orderCreateSchema.parse(boxberryOrder('FP-1', { pointInId: 1, toPoint: 2 }, (o) => { o.order.providerKey = 'fivepost'; patch(o); }));

describe('5Post mapping (started ahead of its adapter)', () => {
  it('every documented status maps to one of our keys; an undocumented one keeps the key before it', () => {
    expect(Object.keys(fivePostStatusKeys)).toHaveLength(12);
    for (const key of Object.values(fivePostStatusKeys)) expect(statusKeys).toContain(key);
    expect(fivePostStatusKey('placed_in_postamat', null)).toBe('readyForRecipient');
    expect(fivePostStatusKey('SOMETHING_NEW', 'onWay')).toBe('onWay');
    expect(fivePostStatusKey('SOMETHING_NEW', null)).toBe('unknown');
  });

  it('its error form { success: false, errorCode, errorMsg } is read; other bodies are not errors; an expired JWT is told apart', () => {
    expect(fivePostError({ success: false, errorCode: 'ORDER_ALREADY_EXISTS', errorMsg: 'Order with senderOrderId FP-1 already exists' })).toEqual({ code: 'ORDER_ALREADY_EXISTS', message: 'Order with senderOrderId FP-1 already exists' });
    for (const body of [{ success: true }, [{ orderId: 'x' }], null, 'ok', { jwt: 'x' }]) expect(fivePostError(body)).toBeNull();
    expect(isJwtRefusal(401, {})).toBe(true);
    expect(isJwtRefusal(400, { success: false, errorCode: 'AUTH', errorMsg: 'JWT expired' })).toBe(true);
    expect(isJwtRefusal(400, { success: false, errorCode: 'VALIDATION', errorMsg: 'clientPhone is invalid' })).toBe(false);
  });

  it('a point of pickuppoints/query becomes our point: weekday hours, card and cash, cell limits in cm and g, hands out only', () => {
    const f = fixture('pickuppoints-query.json');
    expect(pointFromFivePost(f.response.content[0], 40000001)).toEqual(f.expected);
  });

  it('the price comes from the point\'s zone rate: the base with VAT, plus the extra rate per started kilogram above 3 kg, in kopecks', () => {
    const point = fixture('pickuppoints-query.json').response.content[0];
    expect(zonePriceKopecks(point, 2500)).toEqual({ kopecks: 17880, zone: '1' });
    expect(zonePriceKopecks(point, 4200)).toEqual({ kopecks: 17880 + 2 * 3000, zone: '1' });
    expect(zonePriceKopecks({ rate: [] }, 1000)).toBeNull();
  });

  it('the order body: the shop\'s number twice, locations, cash on delivery, one cargo a box in mm and mg with its products', () => {
    const body = toFivePostOrder(order(), { receiver: 'point-uuid', sender: 'warehouse-uuid' });
    expect(body).toMatchObject({
      senderOrderId: 'FP-1', clientOrderId: 'FP-1', clientPhone: '+79031112233', receiverLocation: 'point-uuid', senderLocation: 'warehouse-uuid',
      cost: { paymentType: 'CASH', paymentValue: 3350, price: 3000, deliveryCost: 350 },
      cargoes: [{ senderCargoId: 'FP-1-1', barcodes: [{ value: 'FP-1-1' }], length: 300, width: 200, height: 150, weight: 1_200_000, price: 3000, vat: 20, productValues: [{ name: 'Кроссовки', value: 1, price: 3000, vat: 20, vendorCode: 'SN-42' }] }],
    });
    expect(toFivePostOrder(order((o) => { o.cost = { assessedCost: 3000, codCost: 0 }; }), { receiver: 'p', sender: 's' }).cost.paymentType).toBe('PREPAYMENT');
  });

  it('a box bigger than the locker\'s cell, or heavier than it takes, is refused before any call', () => {
    const point = pointFromFivePost(fixture('pickuppoints-query.json').response.content[0], 1);
    expect(fitsPoint(order(), point)).toEqual([]);
    expect(fitsPoint(order((o) => { o.places![0].length = 70; }), point)).toEqual([expect.objectContaining({ field: 'places.0' })]);
    expect(fitsPoint(order((o) => { o.places![0].weight = 16_000; o.order.weight = 16_000; }), point)).toEqual([expect.objectContaining({ field: 'places.0.weight' })]);
  });
});

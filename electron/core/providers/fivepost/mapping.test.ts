import { readFileSync } from 'node:fs';
import { orderCreateSchema } from '../../../../shared/schemas/order';
import { statusKeys } from '../../../../shared/status-keys';
import { boxberryOrder } from '../../../../test/fakes/boxberry/orders';
import { fivePostCreatedSchema, fivePostPointSchema, fivePostStatusesSchema } from './wire';
import {
  addCityRate, cityKey, fitsPoint, fivePostError, fivePostExecutionKeys, fivePostStageKeys, fivePostStatusKey, fivePostStatusNames, isJwtRefusal, isNotFound,
  mapFivePostHistory, pointFromFivePost, splitExecution, toFivePostOrder, zonePriceKopecks, type CityRate,
} from './mapping';

/** Fixtures are written from carriers-ru.md and lapaygroup/fivepost-sdk; no network is used. */
const fixture = (name: string): any => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const order = (patch: Parameters<typeof boxberryOrder>[2] = () => {}) => orderCreateSchema.parse(boxberryOrder('FP-1', { pointInId: 1, toPoint: 2 }, (o) => { o.order.providerKey = 'fivepost'; patch(o); }));

describe('5Post statuses', () => {
  it('the 8 stages and 20 execution states of the SDK are all mapped to our keys, each with its Russian name', () => {
    expect(Object.keys(fivePostStageKeys)).toHaveLength(8);
    expect(Object.keys(fivePostExecutionKeys)).toHaveLength(20);
    for (const key of [...Object.values(fivePostStageKeys), ...Object.values(fivePostExecutionKeys)]) expect(statusKeys).toContain(key);
    for (const code of [...Object.keys(fivePostStageKeys), ...Object.keys(fivePostExecutionKeys)]) expect(fivePostStatusNames[code]).toBeTruthy();
  });

  it.each(Object.entries(fivePostExecutionKeys))('execution state %s → %s, whatever the stage says', (code, key) => {
    expect(fivePostStatusKey('IN_PROCESS', code, null)).toBe(key);
    expect(fivePostStatusKey('NEW', `${code.toLowerCase()}: a reason`, 'onWay')).toBe(key);
  });

  it.each(Object.entries(fivePostStageKeys))('stage %s → %s when the execution state is missing or undocumented', (code, key) => {
    expect(fivePostStatusKey(code, null, null)).toBe(key);
    expect(fivePostStatusKey(code, 'SOMETHING_NEW', 'onWay')).toBe(key);
  });

  it('a status 5Post never documented keeps the key before it (unknown at first), never a crash', () => {
    expect(fivePostStatusKey('BRAND_NEW', 'BRAND_NEW_TOO', 'onWay')).toBe('onWay');
    expect(fivePostStatusKey('BRAND_NEW', undefined, null)).toBe('unknown');
    expect(fivePostStatusKey(undefined, undefined, null)).toBe('unknown');
    expect(splitExecution('REJECTED: PICKUP_POINT_SIZE_VALIDATION')).toEqual({ code: 'REJECTED', reason: 'PICKUP_POINT_SIZE_VALIDATION' });
  });

  it('a history (newest first) becomes our statuses oldest first, names and reasons kept, an undated entry left out', () => {
    const f = fixture('order-history.json');
    expect(mapFivePostHistory(fivePostStatusesSchema.parse(f.response))).toEqual(f.expected);
    expect(mapFivePostHistory(fivePostStatusesSchema.parse(f.rejected))).toEqual([
      { key: 'uploadingError', at: Date.parse('2020-08-10T13:12:43.31964+03:00'), providerCode: 'REJECTED', providerName: 'Отклонен', providerDescription: 'PICKUP_POINT_SIZE_VALIDATION' },
    ]);
  });
});

describe('5Post error forms', () => {
  it('{ success: false, errorCode, errorMsg } is read; other bodies are not errors', () => {
    expect(fivePostError(fixture('orders-create.json').refusal)).toEqual({ code: '400', message: 'Element partnerOrder[0].shipmentDate has incorrect value' });
    expect(fivePostError({ success: false, errorCode: 'ORDER_ALREADY_EXISTS', errorMsg: 'exists' })).toEqual({ code: 'ORDER_ALREADY_EXISTS', message: 'exists' });
    expect(fivePostError({ success: false })).toEqual({ code: '', message: 'refused' });
    for (const body of [{ success: true }, [{ orderId: 'x' }], null, 'ok', { jwt: 'x' }, undefined]) expect(fivePostError(body)).toBeNull();
  });

  it('an expired or refused JWT is told apart from a refusal of the order', () => {
    expect(isJwtRefusal(401, undefined)).toBe(true);
    expect(isJwtRefusal(400, { success: false, errorCode: 'AUTH', errorMsg: 'JWT expired' })).toBe(true);
    expect(isJwtRefusal(403, { success: false, errorCode: '403', errorMsg: 'Invalid token' })).toBe(true);
    expect(isJwtRefusal(400, { success: false, errorCode: 'VALIDATION', errorMsg: 'clientPhone is invalid' })).toBe(false);
  });

  it('"not found" is an absence (a lookup that found nothing), any other refusal is not', () => {
    expect(isNotFound({ code: 'ORDER_NOT_FOUND', message: 'x' })).toBe(true);
    expect(isNotFound({ code: '404', message: 'Заказ не найден' })).toBe(true);
    expect(isNotFound({ code: '400', message: 'clientPhone is invalid' })).toBe(false);
  });
});

describe('5Post points and zone prices', () => {
  it('a point of pickuppoints/query becomes our point: weekday hours, card and cash, cell limits in cm and g, hands out only', () => {
    const f = fixture('pickuppoints-query.json');
    expect(pointFromFivePost(fivePostPointSchema.parse(f.response.content[0]), 40000001)).toEqual(f.expected);
  });

  it('a store point (not a locker) is type 1; a point without rates or address still reads', () => {
    const p = fivePostPointSchema.parse({ id: 'x', type: 'TOBACCO', rate: [{ zone: 5, rateValue: 100 }] });
    expect(pointFromFivePost(p, 1)).toMatchObject({ type: 1, city: '', cod: 0, code: 'x' });
    // Only the rate without VAT: 20 % added, to the kopeck.
    expect(p.rate![0]).toMatchObject({ zone: '5', rateValueWithVat: 120 });
  });

  it('the price comes from the point\'s zone rate: the base with VAT, plus the extra rate per started kilogram above 3 kg, in kopecks', () => {
    const point = fixture('pickuppoints-query.json').response.content[0];
    expect(zonePriceKopecks(point, 2500)).toEqual({ kopecks: 17880, zone: '1' });
    expect(zonePriceKopecks(point, 3000)).toEqual({ kopecks: 17880, zone: '1' });
    expect(zonePriceKopecks(point, 4200)).toEqual({ kopecks: 17880 + 2 * 3000, zone: '1' });
    expect(zonePriceKopecks({ rate: [] }, 1000)).toBeNull();
  });

  it('a city keeps the rate of its cheapest point and the longest promised term; 5Post\'s "Тихорецк г" is the calculator\'s Тихорецк', () => {
    const rates = new Map<string, CityRate>();
    const point = (id: string, city: string, rate: number, sl: number) => fivePostPointSchema.parse({ id, type: 'POSTAMAT', address: { city }, rate: [{ zone: id, rateValue: rate, rateValueWithVat: rate * 1.2 }], deliverySL: [{ sl }] });
    addCityRate(rates, point('2', 'Москва', 200, 3));
    addCityRate(rates, point('1', 'Москва', 150, 2));
    addCityRate(rates, point('7', 'Тихорецк г', 300, 6));
    expect(rates.get('москва')).toMatchObject({ rate: { zone: '1' }, days: 2 });
    expect(rates.get(cityKey('Тихорецк'))).toMatchObject({ rate: { zone: '7' }, days: 6 });
    expect(cityKey('г. Москва')).toBe('москва');
  });
});

describe('5Post orders', () => {
  it('the order body: the shop\'s number twice, brand, locations, cash on delivery, one cargo a box in mm and mg with its products', () => {
    const body = toFivePostOrder(order(), { receiver: 'point-uuid', sender: 'warehouse-uuid' });
    expect(body).toMatchObject({
      senderOrderId: 'FP-1', clientOrderId: 'FP-1', brandName: 'ООО Ромашка', clientPhone: '+79031112233', receiverLocation: 'point-uuid', senderLocation: 'warehouse-uuid',
      cost: { paymentType: 'CASH', paymentValue: 3350, price: 3000, deliveryCost: 350 },
      cargoes: [{ senderCargoId: 'FP-1-1', barcodes: [{ value: 'FP-1-1' }], length: 300, width: 200, height: 150, weight: 1_200_000, price: 3000, vat: 20, productValues: [{ name: 'Кроссовки', value: 1, price: 3000, vat: 20, vendorCode: 'SN-42' }] }],
    });
    expect(toFivePostOrder(order((o) => { o.cost = { assessedCost: 3000, codCost: 0 }; }), { receiver: 'p', sender: 's' }).cost.paymentType).toBe('PREPAYMENT');
  });

  it('the creation answer is read per order, cargo barcodes included', () => {
    const [created] = fivePostCreatedSchema.parse(fixture('orders-create.json').response);
    expect(created).toMatchObject({ orderId: '12854f88-1b9c-435c-85ba-c2e345b9f891', senderOrderId: 'FP-1', alreadyCreated: false, cargoes: [{ barcode: 'FP-1-1' }] });
  });

  it('a box bigger than the locker\'s cell, or heavier than it takes, is refused before any call', () => {
    const point = pointFromFivePost(fivePostPointSchema.parse(fixture('pickuppoints-query.json').response.content[0]), 1);
    expect(fitsPoint(order(), point)).toEqual([]);
    expect(fitsPoint(order((o) => { o.places![0].length = 70; }), point)).toEqual([expect.objectContaining({ field: 'places.0' })]);
    expect(fitsPoint(order((o) => { o.places![0].weight = 16_000; o.order.weight = 16_000; }), point)).toEqual([expect.objectContaining({ field: 'places.0.weight' })]);
  });
});

import { readFileSync } from 'node:fs';
import { orderCreateSchema } from '../../../../shared/schemas/order';
import { statusKeys } from '../../../../shared/status-keys';
import { boxberryOrder } from '../../../../test/fakes/boxberry/orders';
import {
  boxberryDate, boxberryError, boxberryFieldError, boxberryKopecks, boxberryOrderErrors, boxberryStatusKey, boxberryStatusKeys, boxberryTariffRecords,
  boxberryWorktime, isDuplicate, isNotFound, isTokenRefusal, mapBoxberryStatuses, pointFromBoxberry, toBoxberryParcel,
  boxberryCostsQuery, boxberryTariffs, intakeNumberOf, quoteFromBoxberry, toBoxberryIntake,
} from './mapping';
import { boxberryCostsSchema, boxberryIntakeSchema, boxberryParcelInfoListSchema, boxberryPointSchema, boxberryStatusesSchema } from './wire';

/** Fixtures are written from carriers-ru.md and the SDK's models (see fixtures/README.md); no network is used. */
const fixture = (name: string): any => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

describe('Boxberry mapping: our order → ParselCreate\'s sdata', () => {
  it('to a pickup point with cash on delivery: the whole sum to collect, its delivery part, the target and drop-off points', () => {
    const f = fixture('parsel-create-point.json');
    const o = orderCreateSchema.parse(boxberryOrder('BB-1001', { pointInId: 1, toPoint: 2 }));
    expect(toBoxberryParcel(o, f.points)).toEqual(f.sdata);
  });

  it('by courier, prepaid, two boxes (weight2), the wanted day and hours, the comment as a notice', () => {
    const f = fixture('parsel-create-courier.json');
    const o = orderCreateSchema.parse(
      boxberryOrder('BB-1002', { pointInId: 1 }, (x) => {
        x.cost = { assessedCost: 4500, codCost: 0 };
        Object.assign(x.order, { deliveryDate: '2026-03-03', deliveryTimeStart: '10:00', deliveryTimeEnd: '18:00', comment: 'Домофон 4' });
        x.places = [
          { weight: 1200, length: 30, width: 20, height: 15, items: [{ description: 'Кроссовки', articul: 'SN-42', quantity: 1, assessedCost: 3000, cost: 3000 }] },
          { weight: 800, items: [{ description: 'Носки', quantity: 3, assessedCost: 500, cost: 500 }] },
        ];
      }),
    );
    expect(toBoxberryParcel(o, f.points)).toEqual(f.sdata);
  });

  it('a change goes as the same body with updateByTrack', () => {
    const o = orderCreateSchema.parse(boxberryOrder('BB-1001', { pointInId: 1, toPoint: 2 }));
    expect(toBoxberryParcel(o, { dropOff: '10000', target: '10003' }, '41000001')).toEqual({ updateByTrack: '41000001', ...fixture('parsel-create-point.json').sdata });
  });

  it('more than five boxes, or a delivery charge above the cash to collect, is refused before any call', () => {
    const base = boxberryOrder('BB-X', { pointInId: 1 });
    const six = orderCreateSchema.parse({ ...base, places: Array.from({ length: 6 }, () => base.places![0]) });
    expect(boxberryOrderErrors(six)).toEqual([expect.objectContaining({ field: 'places' })]);
    const over = orderCreateSchema.parse({ ...base, cost: { assessedCost: 100, codCost: 100, deliveryCost: 350 } });
    expect(boxberryOrderErrors(over)).toEqual([expect.objectContaining({ field: 'cost.deliveryCost' })]);
    expect(boxberryOrderErrors(orderCreateSchema.parse(base))).toEqual([]);
  });

  it('its tariffs: to a point (9201) and by courier (9202), both handed over at a point', () => {
    expect(boxberryTariffRecords().map((t) => [t.id, t.deliveryType, t.pickupType])).toEqual([[9201, 2, 2], [9202, 1, 2]]);
  });
});

describe('Boxberry mapping: errors inside HTTP 200', () => {
  it('each of the three forms ({err}, {error, message}, an array holding one) is read, with the field to fix', () => {
    for (const c of fixture('errors.json').cases) {
      const message = boxberryError(c.body);
      expect(message).toBe(c.message);
      expect(boxberryFieldError(message!).field, c.message).toBe(c.field);
      expect(isNotFound(message!)).toBe(!!c.notFound);
      expect(isDuplicate(message!)).toBe(!!c.duplicate);
      expect(isTokenRefusal(message!)).toBe(!!c.token);
    }
  });

  it('answers that carry no refusal are not errors (an empty err, err false, lists, plain values)', () => {
    for (const body of fixture('errors.json').notErrors) expect(boxberryError(body)).toBeNull();
  });

  it('the lookup by number reads the track from either form of ParcelInfo\'s answer', () => {
    const f = fixture('parcel-info.json');
    for (const r of f.responses) expect(boxberryParcelInfoListSchema.parse(r)[0].track_number).toBe(f.expectedTrack);
  });
});

describe('Boxberry mapping: statuses by name', () => {
  it('sorts by time (Moscow, either date form), maps names case-blind, keeps the key across an unknown name, drops undated ones', () => {
    const f = fixture('list-statuses.json');
    expect(mapBoxberryStatuses(boxberryStatusesSchema.parse(f.response))).toEqual(f.expected.map((s: { at: string }) => ({ ...s, at: Date.parse(s.at) })));
  });

  it('every name of the list maps to one of our status keys', () => {
    for (const [name, key] of Object.entries(boxberryStatusKeys)) expect(statusKeys, name).toContain(key);
    expect(Object.keys(boxberryStatusKeys)).toHaveLength(28);
  });

  it('an unknown name never crashes: a new return status by its word, anything else keeps the key before it', () => {
    expect(boxberryStatusKey('Возврат передан перевозчику', 'onWay')).toBe('returning');
    expect(boxberryStatusKey('Что-то новое', 'onPointOut')).toBe('onPointOut');
    expect(boxberryStatusKey('Что-то новое', null)).toBe('unknown');
    expect(boxberryStatusKey('  выдано ', null)).toBe('delivered');
  });

  it('dates come without a zone and are Moscow time', () => {
    expect(boxberryDate('2026-03-01T10:00:00')).toBe(Date.parse('2026-03-01T07:00:00Z'));
    expect(boxberryDate('01.03.2026 10:00')).toBe(Date.parse('2026-03-01T07:00:00Z'));
    expect(boxberryDate('01.03.2026')).toBe(Date.parse('2026-02-28T21:00:00Z'));
    expect(boxberryDate('вчера')).toBeNaN();
  });
});

describe('Boxberry mapping: points and prices', () => {
  it('ListPoints records become our points: GPS, hours, prepaid-only, card, locker, load limit, no reception', () => {
    const f = fixture('list-points.json');
    const parsed = f.response.map((p: unknown) => boxberryPointSchema.safeParse(p));
    expect(parsed.filter((p: { success: boolean }) => !p.success)).toHaveLength(f.skipped);
    const points = parsed.filter((p: { success: boolean }) => p.success).map((p: { data: any }, i: number) => pointFromBoxberry(p.data, 30000001 + i));
    expect(points).toEqual(f.expected);
  });

  it('working hours in Boxberry\'s words: day ranges, single days, dots or colons; what it cannot read is left out', () => {
    expect(boxberryWorktime('пн-ср:09.00-18.00; чт: 10:00-19:30, вс:выходной')).toEqual({ 1: '09:00/18:00', 2: '09:00/18:00', 3: '09:00/18:00', 4: '10:00/19:30' });
    expect(boxberryWorktime('круглосуточно')).toEqual({});
    expect(boxberryWorktime(null)).toEqual({});
  });

  it('prices as numbers or strings become kopecks, never a float sum', () => {
    expect(boxberryKopecks(349.5)).toBe(34950);
    expect(boxberryKopecks('0.1')).toBe(10);
    expect(boxberryKopecks('349,50')).toBe(34950);
    expect(boxberryKopecks('бесплатно')).toBeNaN();
  });
});

describe('Boxberry mapping: prices (DeliveryCosts) and courier intake (CreateIntake)', () => {
  it('the price query carries grams and rubles and where the parcel goes; the answer is a quote in exact kopecks with its term', () => {
    const f = fixture('delivery-costs.json');
    expect(boxberryCostsQuery(f.parcel, { target: '10006' })).toEqual(f.toPoint);
    expect(boxberryCostsQuery(f.parcel, { zip: '420000' })).toEqual(f.toDoor);
    const costs = boxberryCostsSchema.parse(f.answer);
    expect(quoteFromBoxberry(boxberryTariffs[0], costs)).toEqual({
      tariffId: 9201, tariffProviderId: '1', tariffName: 'Boxberry: до пункта выдачи', pickupType: 2, deliveryType: 2, transportKopecks: 30_550, insuranceKopecks: 0, codFeeKopecks: 0, daysMin: 3, daysMax: 3,
    });
    expect(quoteFromBoxberry(boxberryTariffs[1], { price: '0.1' })).toMatchObject({ transportKopecks: 10, daysMin: 0, daysMax: 0 });
    expect(quoteFromBoxberry(boxberryTariffs[1], { price: 'по запросу' })).toBeNull();
  });

  it('a courier call becomes CreateIntake\'s parameters: address parts, contact, DD.MM.YYYY day, boxes, grams, the parcels in the comment', () => {
    const f = fixture('create-intake.json');
    const shipment = (providerNumber: string) => ({ providerNumber, request: {} as never });
    const query = toBoxberryIntake({
      companyId: 1, callId: 3, date: '2026-03-03', timeStart: '10:00', timeEnd: '14:00', weight: 2400,
      address: { countryCode: 'RU', city: 'Москва', postIndex: '101000', street: 'Тверская', house: '7', block: '2', office: '12' },
      contactName: 'Иван Петров', phone: '+7 (916) 123-45-67', email: 'shop@example.ru', comment: 'Домофон 12',
      shipments: [shipment('41000001'), shipment('41000002')], today: '2026-03-02', hour: 9,
    });
    expect(query).toEqual(f.query);
    expect(intakeNumberOf(boxberryIntakeSchema.parse(f.answer).message)).toBe('7701');
    expect(intakeNumberOf('Заявка принята')).toBeNull();
  });
});


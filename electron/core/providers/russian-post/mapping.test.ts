import { readFileSync } from 'node:fs';
import { orderCreateSchema } from '../../../../shared/schemas/order';
import { statusKeys } from '../../../../shared/status-keys';
import { russianPostOrder } from '../../../../test/fakes/russian-post/orders';
import {
  callRefusal, indexOfCity, isAuthRefusal, isBarcode, isNotFound, mailCategoryOf, mapPostOperations, pointFromPost, postDate, postFieldError, postOperationRules, postStatusKey,
  postWorktime, refusalsOf, russianPostOrderErrors, russianPostTariffRecords, russianPostTariffs, splitName, tariffRequest, toPostOrder,
} from './mapping';
import { postBatchesCreatedSchema, postCreatedSchema, postPointSchema, postTariffSchema, type PostOperation } from './wire';

/** Fixtures are written from carriers-ru.md and the SDKs' sources (see fixtures/README.md); no network is used. */
const fixture = (name: string): any => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const order = (...args: Parameters<typeof russianPostOrder>) => orderCreateSchema.parse(russianPostOrder(...args));

describe('Russian Post mapping: our order → an order of PUT /1.0/user/backlog', () => {
  it('to the recipient\'s post office: "called for" (DEMAND) at the point\'s index, COD within the declared value, all money in kopecks', () => {
    const f = fixture('backlog-create-point.json');
    expect(toPostOrder(order('RP-1001', { toPoint: 1 }), f.postofficeCode, f.destination)).toEqual(f.request);
  });

  it('to the door: the recipient\'s address and index with the courier service; prepaid and undeclared is ORDINARY; the comment goes along', () => {
    const f = fixture('backlog-create-door.json');
    const o = order('RP-1002', {}, (x) => { x.cost = { assessedCost: 0, codCost: 0 }; x.order.comment = 'Домофон 4'; });
    expect(toPostOrder(o, f.postofficeCode, f.destination)).toEqual(f.request);
  });

  it('ECOM to a pickup point names it as ecom-data.delivery-point-index; a declared value without COD', () => {
    const f = fixture('backlog-create-ecom.json');
    const o = order('RP-1003', { toPoint: 2, ecom: true }, (x) => { x.cost = { assessedCost: 2000, codCost: 0 }; });
    expect(toPostOrder(o, f.postofficeCode, f.destination)).toEqual(f.request);
  });

  it('the mail category follows the money: COD, a declared value, or neither', () => {
    expect(mailCategoryOf(order('C1'))).toBe('WITH_DECLARED_VALUE_AND_CASH_ON_DELIVERY');
    expect(mailCategoryOf(order('C2', {}, (x) => { x.cost = { assessedCost: 100, codCost: 0 }; }))).toBe('WITH_DECLARED_VALUE');
    expect(mailCategoryOf(order('C3', {}, (x) => { x.cost = { assessedCost: 0, codCost: 0 }; }))).toBe('ORDINARY');
  });

  it('a name is split surname first, as Russian Post wants it; two words are taken as given name and surname', () => {
    expect(splitName('Сидоров Пётр Ильич')).toEqual({ surname: 'Сидоров', 'given-name': 'Пётр', 'middle-name': 'Ильич' });
    expect(splitName('Анна Смирнова')).toEqual({ surname: 'Смирнова', 'given-name': 'Анна' });
    expect(splitName('Мадонна')).toEqual({ surname: 'Мадонна', 'given-name': 'Мадонна' });
  });

  it('what ShipDesk can tell before calling: a foreign tariff, two boxes, 20 kg, COD above the declared value, a door without an index', () => {
    expect(russianPostOrderErrors(order('E0'))).toEqual([]);
    const fields = (patch: Parameters<typeof russianPostOrder>[2]) => russianPostOrderErrors(order('E', {}, patch)).map((e) => e.field);
    expect(fields((x) => { x.order.tariffId = 9101; })).toEqual(['order.tariffId']);
    expect(fields((x) => { x.order.tariffId = 9301; })).toEqual(['order.deliveryType']);
    expect(fields((x) => { x.order.pickupType = 1; })).toEqual(['order.pickupType']);
    expect(fields((x) => { x.places.push({ ...x.places[0] }); })).toEqual(['places']);
    expect(fields((x) => { x.places[0].weight = 20_001; x.order.weight = 20_001; })).toEqual(['places.0.weight']);
    expect(fields((x) => { x.cost.assessedCost = 3000; })).toEqual(['cost.assessedCost']);
    expect(fields((x) => { delete x.recipient.index; })).toEqual(['recipient.index']);
  });

  it('its three tariffs are listed for the lists: handed over at the post office, up to 20 kg', () => {
    expect(russianPostTariffRecords().map((t) => [t.id, t.deliveryType, t.pickupType, t.weightMax])).toEqual([[9301, 2, 2, 20_000], [9302, 1, 2, 20_000], [9303, 2, 2, 20_000]]);
  });
});

describe('Russian Post mapping: refusals', () => {
  it('refusals of single orders inside HTTP 200, by position, in both of its forms, become field errors the shop recognises', () => {
    for (const c of fixture('errors.json').positions) {
      const parsed = postCreatedSchema.parse(c.body);
      expect(parsed.errors.flatMap(refusalsOf).map(postFieldError)).toEqual(c.fields);
    }
  });

  it('a refusal of the whole call, wherever the service put it ({code, sub-code, desc}, {error, status}, {status: ERROR}, a lone error-code in 200), and what it means', () => {
    for (const c of fixture('errors.json').calls) {
      const refusal = callRefusal(c.body);
      expect(refusal).toEqual(c.refusal);
      if (refusal) {
        expect(isAuthRefusal(refusal.code, c.status)).toBe(c.auth);
        expect(isNotFound(refusal.code, c.status)).toBe(c.notFound);
      }
    }
  });
});

const op = (type: number, attribute: number, at: string): PostOperation => ({ type, attribute, at: postDate(at) });

describe('Russian Post mapping: tracking operations → our status keys', () => {
  it('every documented operation type (1–42) maps to one of our keys or keeps the previous one; none throws', () => {
    expect(Object.keys(postOperationRules).map(Number)).toEqual(Array.from({ length: 42 }, (_, i) => i + 1));
    for (let type = 1; type <= 42; type++) {
      for (const attribute of [0, 1, 2, 3, 9, 15, 99]) {
        const key = postStatusKey(type, attribute, 'onWay');
        expect(statusKeys).toContain(key);
      }
    }
  });

  it('delivery to the recipient ends delivered, to the sender returned; lost is lost; cancel is canceled', () => {
    expect(postStatusKey(2, 1, 'readyForRecipient')).toBe('delivered');
    expect(postStatusKey(2, 8, 'delivering')).toBe('delivered');
    expect(postStatusKey(2, 2, 'returnReady')).toBe('returned');
    expect(postStatusKey(5, 1, 'onWay')).toBe('lost');
    expect(postStatusKey(18, 0, 'onWay')).toBe('lost');
    expect(postStatusKey(26, 1, 'uploaded')).toBe('deliveryCanceled');
    expect(postStatusKey(8, 15, 'onPointOut')).toBe('delivering');
  });

  it('after a return starts, moving is the return\'s progress and arriving is "return ready"', () => {
    const history = mapPostOperations([op(1, 2, '2026-03-01T10:00:00+03:00'), op(3, 1, '2026-03-20T10:00:00+03:00'), op(8, 4, '2026-03-21T10:00:00+03:00'), op(8, 2, '2026-03-23T10:00:00+03:00'), op(2, 2, '2026-03-24T10:00:00+03:00')]);
    expect(history.map((h) => h.key)).toEqual(['onPointIn', 'returning', 'returning', 'returnReady', 'returned']);
  });

  it('an operation type it never documented keeps the key before it (unknown at first), never a crash', () => {
    expect(postStatusKey(99, 1, null)).toBe('unknown');
    expect(postStatusKey(99, 1, 'onWay')).toBe('onWay');
    expect(postStatusKey(Number.NaN, 0, 'onPointIn')).toBe('onPointIn');
  });

  it('a history (both date forms, out of order) is sorted oldest first, each with its code, names and place', () => {
    const f = fixture('operation-history.json');
    const history = mapPostOperations(f.operations.map((o: any) => ({ ...o, at: postDate(o.at) })));
    expect(history.map((h) => h.key)).toEqual(f.keys);
    expect(history[0]).toEqual({ key: 'uploaded', at: Date.parse('2026-03-01T07:00:00Z'), providerCode: '28.0', providerName: 'Присвоение идентификатора', providerDescription: '101000' });
    expect(history[2]).toMatchObject({ at: Date.parse('2026-03-01T17:00:00Z'), providerCode: '8.1', providerName: 'Обработка: Покинуло место приёма' });
  });

  it('dates: ISO with an offset, ISO without one (Moscow), and the tickets\' dd.mm.yyyy hh:mm:ss (Moscow); anything else is not a date', () => {
    expect(postDate('2026-03-01T10:15:00.000+03:00')).toBe(Date.parse('2026-03-01T07:15:00Z'));
    expect(postDate('2026-03-01T10:15:00')).toBe(Date.parse('2026-03-01T07:15:00Z'));
    expect(postDate('01.03.2026 10:15:00')).toBe(Date.parse('2026-03-01T07:15:00Z'));
    expect(postDate('вчера')).toBeNaN();
  });

  it('a ШПИ is 14 digits (or the international 13 characters)', () => {
    expect(isBarcode('10100009000012')).toBe(true);
    expect(isBarcode('RA123456789RU')).toBe(true);
    expect(isBarcode('115322001')).toBe(false);
    expect(isBarcode(null)).toBe(false);
  });
});

describe('Russian Post mapping: points, prices, batches', () => {
  it('delivery points become ours: a post office (type 3) takes parcels in and out, a locker only hands out (type 2), a delivery point is type 1, a closed point is disabled', () => {
    const [office, locker, closed] = fixture('delivery-points.json').points.map((p: unknown, i: number) => pointFromPost(postPointSchema.parse(p), 40_000_001 + i));
    expect(office).toMatchObject({ code: '190003', type: 3, availableOperation: 3, city: 'Санкт-Петербург', address: '190003, Санкт-Петербург, ул. Почтовая, д. 5', cod: 1, paymentCard: 1, enabled: 1, lat: 59.93 });
    expect(office.worktime).toEqual({ 1: '08:00/20:00', 2: '08:00/20:00', 6: '09:00/18:00' });
    expect(office.limits.maxWeight).toBe(20_000);
    expect(locker).toMatchObject({ code: '420004', type: 2, availableOperation: 1, name: 'Почтомат 420004', cod: 1, paymentCash: 0, lat: 55.79, description: 'У входа в магазин' });
    expect(closed).toMatchObject({ type: 1, availableOperation: 1, cod: 0, enabled: 0, region: null });
    expect(postWorktime(['пн - круглосуточно'])).toEqual({});
  });

  it('a price is asked from the shop\'s office to the city\'s head post office; its answer is in kopecks with the days', () => {
    const f = fixture('batch-and-tariff.json').tariff;
    expect(indexOfCity('г. Санкт-Петербург')).toBe('190000');
    expect(indexOfCity('Урюпинск')).toBeNull();
    expect(tariffRequest(russianPostTariffs[0], '101000', '190000', { massGrams: 1200, declaredKopecks: 350_000, codKopecks: 335_000, dimension: { length: 30, width: 20, height: 15 } })).toEqual(f.request);
    expect(postTariffSchema.parse(f.answer)).toEqual({ 'total-rate': 52_000, 'total-vat': 10_400, 'delivery-time': { 'min-days': 3, 'max-days': 6 } });
  });

  it('forming batches answers the batches (one per mail type) and refusals by position', () => {
    const answer = postBatchesCreatedSchema.parse(fixture('batch-and-tariff.json').answer);
    expect(answer.batches.map((b) => [b['batch-name'], b['mail-type'], b['shipment-count']])).toEqual([['101', 'POSTAL_PARCEL', 2], ['102', 'ECOM', 1]]);
    expect(answer.errors.map((e) => [e.position, refusalsOf(e)[0].code])).toEqual([[3, 'NOT_FOUND']]);
  });
});

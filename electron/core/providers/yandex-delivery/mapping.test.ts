import { readFileSync } from 'node:fs';
import { orderCreateSchema, type OrderCreate } from '../../../../shared/schemas/order';
import { statusKeys } from '../../../../shared/status-keys';
import { yandexOrder } from '../../../../test/fakes/yandex-delivery/orders';
import { splitCod } from '../cod-split';
import { extractYandexError } from './errors';
import {
  chooseOffer, duplicateRequestId, fieldErrorOf, intervalsFromYandex, kopecksOfPrice, latitudeBand, mapHistory, pointFromYandex, statusKeyFor,
  toYandexEdit, toYandexRequest, yandexStatusKeys, yandexTariffRecords,
} from './mapping';
import { yandexCancelSchema, yandexOffersSchema, yandexPointSchema, yandexRequestsInfoSchema } from './wire';

/** Fixtures are written from the platform's reference pages (see fixtures/README.md); no network is used. */
const fixture = (name: string): any => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const split = (o: OrderCreate) => {
  const result = splitCod(o, 'Yandex Delivery');
  if (!('split' in result)) throw new Error(JSON.stringify(result.errors));
  return result.split;
};

const doorOrder = () =>
  orderCreateSchema.parse(
    yandexOrder('SHOP-2001', { pointInId: 20000001 }, (o) => {
      Object.assign(o.order, { deliveryDate: '2026-03-03', deliveryTimeStart: '10:00', deliveryTimeEnd: '14:00' });
    }),
  );

describe('Yandex Delivery mapping: our order → the body of offers/create', () => {
  it('a door delivery with cash on delivery: kopecks per unit, the delivery charge apart, the wanted hours in UTC, the recipient\'s name split', () => {
    const f = fixture('offers-create-door.json');
    const o = doorOrder();
    expect(toYandexRequest(o, f.stations, split(o))).toEqual(f.request);
  });

  it('a change of a booked request (request/edit) carries its id, the recipient and the destination, nothing of boxes or payment', () => {
    const f = fixture('request-edit.json');
    const o = doorOrder();
    const edit = toYandexEdit(f.request_id, toYandexRequest(o, fixture('offers-create-door.json').stations, split(o)));
    expect(edit).toEqual(f.request);
    expect(Object.keys(edit).sort()).toEqual(['destination', 'recipient_info', 'request_id']);
  });

  it('two boxes to a pickup point, already paid: each box its barcode, unmeasured boxes as big as their largest item', () => {
    const f = fixture('offers-create-point.json');
    const o = orderCreateSchema.parse(
      yandexOrder('SHOP-2002', { pointInId: 20000001, toPoint: 20000002 }, (x) => {
        x.cost = { assessedCost: 1800, codCost: 0 };
        x.places = [
          { weight: 500, barcode: 'BOX-A', length: 20, width: 15, height: 10, items: [{ description: 'Книга', quantity: 1, assessedCost: 800, cost: 800 }] },
          { weight: 700, items: [{ description: 'Чайник', articul: 'K-7', quantity: 1, assessedCost: 1000, length: 25, width: 20, height: 20 }] },
        ];
      }),
    );
    expect(toYandexRequest(o, f.stations, split(o))).toEqual(f.request);
  });

  it('cash on delivery that does not add up to the kopeck is refused for Yandex, never rounded', () => {
    const o = orderCreateSchema.parse(yandexOrder('SHOP-2003', { pointInId: 1 }, (x) => { x.cost.codCost = 2990.49; }));
    expect(splitCod(o, 'Yandex Delivery')).toEqual({ errors: [expect.objectContaining({ field: 'cost.codCost', message: expect.stringContaining('Yandex Delivery') })] });
  });

  it('its tariffs are the two last-mile policies from a drop-off point or from the shop\'s warehouse', () => {
    expect(yandexTariffRecords().map((t) => [t.id, t.deliveryType, t.pickupType])).toEqual([[9101, 1, 2], [9102, 2, 2], [9103, 1, 1], [9104, 2, 1]]);
  });
});

describe('Yandex Delivery mapping: offers', () => {
  const f = fixture('offers-create-door.json');
  const offers = yandexOffersSchema.parse(f.response).offers;

  it('books the offer on the wanted date inside the wanted hours', () => {
    expect(chooseOffer(offers, { date: '2026-03-03', from: '10:00', to: '14:00' })?.offer_id).toBe(f.expected.chosen);
  });

  it('takes the earliest offer when the order names no date, and none when the date asked for has no offer', () => {
    expect(chooseOffer(offers, {})?.offer_id).toBe(f.expected.withoutDate);
    expect(chooseOffer(offers, { date: '2026-03-09' })).toBe(f.expected.onAnotherDate);
    expect(chooseOffer(offers, { date: '2026-03-03', from: '20:00' })).toBeNull();
  });

  it('prices like "311.35 RUB" become kopecks; a price it cannot read is NaN, never zero', () => {
    for (const c of fixture('pricing-calculator.json').cases) {
      const k = kopecksOfPrice(c.body.pricing_total);
      if (c.kopecks === null) expect(k).toBeNaN();
      else expect(k).toBe(c.kopecks);
    }
  });
});

describe('Yandex Delivery mapping: statuses', () => {
  it('sorts the history by time, maps each status, keeps the key across a re-planned interval and an unknown status, drops undated ones', () => {
    const f = fixture('request-history.json');
    expect(mapHistory(f.response.state_history)).toEqual(f.expected.map((s: { at: string }) => ({ ...s, at: Date.parse(s.at) })));
  });

  it('every documented status maps to one of our status keys (or keeps the one before it)', () => {
    for (const [status, key] of Object.entries(yandexStatusKeys)) {
      expect(key === null || statusKeys.includes(key), status).toBe(true);
      expect(statusKeys).toContain(statusKeyFor(status, 'onWay'));
    }
    expect(Object.keys(yandexStatusKeys)).toHaveLength(46);
  });

  it('the main chain of each branch reads as the shop expects', () => {
    const chain = (codes: string[]) => {
      let previous = null as ReturnType<typeof statusKeyFor> | null;
      return codes.map((c) => (previous = statusKeyFor(c, previous)));
    };
    expect(chain(['DRAFT', 'CREATED', 'SORTING_CENTER_AT_START', 'DELIVERY_AT_START', 'DELIVERY_TRANSPORTATION_RECIPIENT', 'DELIVERY_DELIVERED'])).toEqual(['uploaded', 'uploaded', 'onPointIn', 'onPointOut', 'delivering', 'delivered']);
    expect(chain(['CREATED', 'DELIVERY_TRANSPORTATION', 'DELIVERY_ARRIVED_PICKUP_POINT', 'DELIVERY_STORAGE_PERIOD_EXPIRED', 'RETURN_TRANSPORTATION_STARTED', 'RETURN_READY_FOR_PICKUP', 'RETURN_RETURNED'])).toEqual(['uploaded', 'onWay', 'readyForRecipient', 'returnedFromDelivery', 'returning', 'returnReady', 'returned']);
    expect(chain(['VALIDATING', 'VALIDATING_ERROR'])).toEqual(['uploaded', 'uploadingError']);
  });

  it('an unknown status never crashes: a new cancel or return status by its name, anything else keeps the previous key, "unknown" at first', () => {
    expect(statusKeyFor('CANCELLED_BY_SOMEONE_NEW', 'onWay')).toBe('deliveryCanceled');
    expect(statusKeyFor('SORTING_CENTER_RETURN_SOMETHING', 'onWay')).toBe('returning');
    expect(statusKeyFor('BRAND_NEW', 'onPointOut')).toBe('onPointOut');
    expect(statusKeyFor('BRAND_NEW', null)).toBe('unknown');
    expect(statusKeyFor('DELIVERY_UPDATED_BY_SHOP', null)).toBe('unknown');
  });
});

describe('Yandex Delivery mapping: find, cancel and errors', () => {
  it('the lookup window\'s answer carries each request\'s shop number', () => {
    const answer = yandexRequestsInfoSchema.parse(fixture('requests-info.json').response);
    expect(answer.requests.map((r) => [r.request_id, r.request?.info?.operator_request_id, r.state?.status])).toEqual([
      ['aaa-udp', 'SHOP-1999', 'DELIVERY_DELIVERED'],
      ['77241d8009bb46d0bff5c65a73077bcd-udp', 'SHOP-2001', 'CREATED'],
    ]);
  });

  it('a cancel answered SUCCESS or CREATED is done, ERROR carries its reason', () => {
    for (const a of fixture('request-cancel.json').answers) {
      const parsed = yandexCancelSchema.parse(a.body);
      expect(parsed.status !== 'ERROR').toBe(a.accepted);
    }
  });

  it('a duplicate shop number names the existing request when the message carries it', () => {
    const f = fixture('offers-confirm.json');
    expect(duplicateRequestId(extractYandexError(f.duplicate.body)!)).toBe(f.duplicate.expectedRequestId);
    expect(duplicateRequestId(extractYandexError(f.duplicateWithoutId.body)!)).toBeNull();
    expect(duplicateRequestId({ code: 'bad_request', message: 'Cannot parse destination info' })).toBeUndefined();
  });

  it('every error answer reads as { code, message } and points at the field to fix; other bodies are not errors', () => {
    const f = fixture('errors.json');
    for (const c of f.cases) {
      const error = extractYandexError(c.body);
      expect(error).toEqual(c.body);
      expect(fieldErrorOf(error!).field, c.body.message).toBe(c.field);
    }
    for (const body of f.notErrors) expect(extractYandexError(body)).toBeNull();
  });
});

describe('Yandex Delivery mapping: points and intervals', () => {
  it('pickup points and lockers become our point records: hours per weekday, payments, drop-off; a broken record is not one', () => {
    const f = fixture('pickup-points.json');
    const parsed = f.response.points.map((p: unknown) => yandexPointSchema.safeParse(p));
    expect(parsed.filter((p: { success: boolean }) => !p.success)).toHaveLength(f.skipped);
    const points = parsed.filter((p: { success: boolean }) => p.success).map((p: { data: any }, i: number) => pointFromYandex(p.data, 20000001 + i));
    expect(points).toEqual(f.expected);
  });

  it('Russia is walked in bands of latitude, the last one ending at 82°', () => {
    expect(latitudeBand(0, 2)).toEqual({ from: 41, to: 43, last: false });
    expect(latitudeBand(20, 2)).toEqual({ from: 81, to: 82, last: true });
    expect(latitudeBand(0, 50)).toEqual({ from: 41, to: 82, last: true });
  });

  it('door intervals in UTC become Moscow dates and hours; duplicates, night-crossing and reversed ones are left out', () => {
    const f = fixture('offers-info.json');
    expect(intervalsFromYandex(f.response.offers)).toEqual(f.expected);
  });
});

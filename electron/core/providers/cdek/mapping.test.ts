import { readFileSync } from 'node:fs';
import { orderCreateSchema, type OrderCreate } from '../../../../shared/schemas/order';
import { extractCdekErrors } from './errors';
import {
  cdekParcelTariffs, cdekStatusKeys, cdekTariffRecords, createOutcome, currentStatusCode, fieldErrorsFrom, formatCdekDate, intervalsFromCdek,
  mapStatuses, officeToPoint, parseCdekDate, splitCod, statusKeyFor, tariffsFromTariffList, toCdekLocation, toCdekOrder, toCdekOrderUpdate,
  type CodSplit,
} from './mapping';
import { cdekIntervalsSchema, cdekOfficeSchema, cdekOrderResponseSchema, cdekStatusSchema, cdekTariffListSchema, cdekTokenSchema } from './wire';

/** Fixtures are built from shared/reference/cdek-v2.md (see fixtures/README.md); no network is used. */
const fixture = (name: string): any => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const order = (raw: unknown): OrderCreate => orderCreateSchema.parse(raw);
const split = (o: OrderCreate): CodSplit => {
  const result = splitCod(o);
  if (!('split' in result)) throw new Error(JSON.stringify(result.errors));
  return result.split;
};
const iso = (text: string) => Date.parse(text);

describe('CDEK mapping: our order → the body of POST /v2/orders', () => {
  it('a door-to-door order with cash on delivery becomes CDEK\'s body: COD per unit, declared cost per unit, delivery cost to the recipient', () => {
    const f = fixture('order-create-door.json');
    const o = order(f.order);
    expect(toCdekOrder(o, f.points, split(o))).toEqual(f.request);
  });

  it('an office-to-office order names the offices, splits packages, fills ware keys and item weights it was not given', () => {
    const f = fixture('order-create-office.json');
    const o = order(f.order);
    expect(toCdekOrder(o, f.points, split(o))).toEqual(f.request);
  });

  it('a change is sent by CDEK number, without type and number', () => {
    const f = fixture('order-update.json');
    const o = order(fixture(f.base).order);
    expect(toCdekOrderUpdate(o, {}, split(o), f.cdekNumber)).toEqual(f.request);
  });

  it('cash on delivery must add up to the kopeck: items × quantity + deliveryCost = codCost', () => {
    const base = fixture('order-create-door.json').order;
    const off = order({ ...base, cost: { ...base.cost, codCost: 2990.49 } });
    expect(splitCod(off)).toEqual({ errors: [expect.objectContaining({ field: 'cost.codCost' })] });
    // Without deliveryCost the rest of codCost is what the recipient pays for delivery.
    const rest = order({ ...base, cost: { assessedCost: 2500, codCost: 2700.1 } });
    expect(split(rest).deliveryRecipientCost).toBe(20010);
    // No item costs: only a COD that is all delivery cost can be expressed.
    const noItems = order({ ...base, places: [{ weight: 500, items: [{ description: 'Книга', quantity: 1 }] }] });
    expect(splitCod(noItems)).toEqual({ errors: [expect.objectContaining({ field: 'places.0.items.0.cost' })] });
    const deliveryOnly = order({ ...base, cost: { assessedCost: 100, codCost: 300, deliveryCost: 300 }, places: [{ weight: 500, items: [{ description: 'Книга', quantity: 1 }] }] });
    expect(split(deliveryOnly)).toEqual({ deliveryRecipientCost: 30000, perUnit: [[0]] });
    // Float sums that drift in binary still split exactly.
    const drift = order({ ...base, cost: { assessedCost: 1, codCost: 0.3, deliveryCost: 0.1 }, places: [{ weight: 100, items: [{ description: 'A', quantity: 2, cost: 0.1 }] }] });
    expect(split(drift)).toEqual({ deliveryRecipientCost: 10, perUnit: [[10]] });
  });
});

describe('CDEK mapping: the asynchronous create', () => {
  const f = fixture('order-get.json');
  it.each(['accepted', 'successfulWithoutNumber', 'successful', 'invalid'])('reads the %s stage', (stage) => {
    const outcome = createOutcome(cdekOrderResponseSchema.parse(f[stage].response));
    const { fieldErrors, ...expected } = f[stage].expected;
    expect(outcome).toEqual(expected);
    if (fieldErrors && outcome.state === 'invalid') expect(fieldErrorsFrom(outcome.errors)).toEqual(fieldErrors);
  });

  it('the 202 of POST /v2/orders is ACCEPTED with the order uuid', () => {
    const c = fixture('order-create-door.json');
    expect(createOutcome(cdekOrderResponseSchema.parse(c.response.body))).toEqual(c.expected);
  });
});

describe('CDEK mapping: statuses', () => {
  const f = fixture('order-statuses.json');
  const statuses = cdekOrderResponseSchema.parse(f.response).entity!.statuses;

  it('sorts by date, skips deleted statuses, maps codes to our keys and an unknown code to "in transit"', () => {
    expect(mapStatuses(statuses)).toEqual(f.expected.map((s: { at: string }) => ({ ...s, at: iso(s.at) })));
    expect(currentStatusCode(statuses)).toBe('DELIVERED');
  });

  it('a refusal (NOT_DELIVERED, reason 11) is the parcel returning to the sender', () => {
    const mapped = mapStatuses(f.refused.statuses.map((s: unknown) => cdekStatusSchema.parse(s)));
    expect(mapped.map((s) => s.key)).toEqual(f.refused.expectedKeys);
    expect(mapped[1].providerDescription).toBe(f.refused.expectedDescription);
  });

  it('every status code of the reference has a key, and the documented ones are as agreed', () => {
    const reference = [
      'ACCEPTED', 'CREATED', 'INVALID', 'REMOVED', 'RECEIVED_AT_SHIPMENT_WAREHOUSE', 'READY_TO_SHIP_AT_SENDING_OFFICE',
      'READY_FOR_SHIPMENT_IN_SENDER_CITY', 'TAKEN_BY_TRANSPORTER_FROM_SENDER_CITY', 'SENT_TO_TRANSIT_CITY', 'ACCEPTED_IN_TRANSIT_CITY',
      'ACCEPTED_AT_TRANSIT_WAREHOUSE', 'SENT_TO_RECIPIENT_CITY', 'ACCEPTED_IN_RECIPIENT_CITY', 'ACCEPTED_AT_RECIPIENT_CITY_WAREHOUSE',
      'ACCEPTED_AT_PICK_UP_POINT', 'TAKEN_BY_COURIER', 'RETURNED_TO_RECIPIENT_CITY_WAREHOUSE', 'POSTOMAT_POSTED', 'POSTOMAT_SEIZED',
      'POSTOMAT_RECEIVED', 'DELIVERED', 'NOT_DELIVERED',
    ];
    expect(Object.keys(cdekStatusKeys).sort()).toEqual([...reference].sort());
    expect(Object.fromEntries(['ACCEPTED', 'CREATED', 'INVALID', 'RECEIVED_AT_SHIPMENT_WAREHOUSE', 'ACCEPTED_AT_PICK_UP_POINT', 'POSTOMAT_POSTED', 'TAKEN_BY_COURIER', 'DELIVERED', 'REMOVED'].map((c) => [c, statusKeyFor(c)]))).toEqual({
      ACCEPTED: 'uploaded',
      CREATED: 'uploaded',
      INVALID: 'uploadingError',
      RECEIVED_AT_SHIPMENT_WAREHOUSE: 'onPointIn',
      ACCEPTED_AT_PICK_UP_POINT: 'readyForRecipient',
      POSTOMAT_POSTED: 'readyForRecipient',
      TAKEN_BY_COURIER: 'delivering',
      DELIVERED: 'delivered',
      REMOVED: 'deliveryCanceled',
    });
    expect(statusKeyFor('NOT_DELIVERED', '11')).toBe('returning');
    expect(statusKeyFor('NOT_DELIVERED', '2')).toBe('returnedFromDelivery');
    expect(statusKeyFor('NOT_DELIVERED')).toBe('returnedFromDelivery');
    expect(statusKeyFor('WHATEVER_CDEK_ADDS_NEXT_YEAR')).toBe('onWay');
  });

  it('reads CDEK\'s dates without a colon in the offset, and writes them the same way', () => {
    expect(parseCdekDate('2023-11-28T07:44:45+0000')).toBe(Date.UTC(2023, 10, 28, 7, 44, 45));
    expect(parseCdekDate('2023-11-28T10:44:45+0300')).toBe(Date.UTC(2023, 10, 28, 7, 44, 45));
    expect(Number.isNaN(parseCdekDate('yesterday'))).toBe(true);
    expect(formatCdekDate(Date.UTC(2026, 2, 1, 7, 5, 9))).toBe('2026-03-01T07:05:09+0000');
  });
});

describe('CDEK mapping: offices, tariffs, intervals, errors', () => {
  it('offices become our point records: worktime, fitting room, COD, type, limits in grams', () => {
    const f = fixture('deliverypoints.json');
    const points = f.response.body.map((o: unknown, i: number) => officeToPoint(cdekOfficeSchema.parse(o), 10_000_001 + i));
    expect(points).toEqual(f.expected);
  });

  it('the tariff list becomes calculator tariffs with pickup and delivery types; a mode ShipDesk cannot place is left out', () => {
    const f = fixture('tarifflist.json');
    expect(tariffsFromTariffList(cdekTariffListSchema.parse(f.response.body))).toEqual(f.expected);
    expect({ type: 1, from_location: toCdekLocation(f.input.from), to_location: toCdekLocation(f.input.to), packages: f.input.places }).toEqual(f.request);
  });

  it('the parcel tariffs are listed with their pickup and delivery types', () => {
    expect(cdekTariffRecords().map((t) => [t.id, t.pickupType, t.deliveryType])).toEqual([
      [136, 2, 2], [137, 2, 1], [138, 1, 2], [139, 1, 1], [366, 1, 2], [368, 2, 2],
    ]);
    expect(cdekParcelTariffs).toHaveLength(6);
  });

  it('estimated intervals become toIntervals with dates', () => {
    const f = fixture('estimated-intervals.json');
    expect(intervalsFromCdek(cdekIntervalsSchema.parse(f.response.body))).toEqual(f.expected);
    expect({
      date_time: formatCdekDate(Date.parse(f.pickupAt)),
      from_location: toCdekLocation({ countryCode: 'RU', city: 'Москва' }),
      to_location: toCdekLocation({ countryCode: 'RU', city: 'Санкт-Петербург', addressString: 'Невский проспект, д. 28' }),
      tariff_code: 139,
    }).toEqual(f.request);
  });

  it('the token answer is read', () => {
    const f = fixture('oauth-token.json');
    expect(cdekTokenSchema.parse(f.response.body)).toMatchObject({ access_token: 'eyJhbGciOiJSUzI1NiJ9.fixture', expires_in: 3599 });
  });

  const errorCases: { name: string; body: unknown; expected: unknown }[] = fixture('errors.json').cases;
  it.each(errorCases)('finds errors: $name', (c) => {
    expect(extractCdekErrors(c.body)).toEqual(c.expected);
  });
});

import { readFileSync } from 'node:fs';
import { calculatorPlaceSchema } from '../../../../shared/schemas/calculator';
import { orderCreateSchema, type OrderCreate } from '../../../../shared/schemas/order';
import { parseTimestamp } from '../../../../shared/time';
import { resolvePlace } from '../../calculator/geo';
import { UpstreamApiError } from './errors';
import {
  UPSTREAM_ID_BASE, capabilitiesOf, clientNumberTaken, defaultCapabilities, historyFromRemote, localId, localKey, parseLocalKey, pointFromRemote,
  quantityDeliveredOf, quotesFromRemote, refusalFrom, registrationFrom, remoteIdOf, sameShipment, serviceFromRemote, serviceRecordOf, slotsFromRemote,
  stageOf, statusFromRemote, takesService, tariffFromRemote, toRemoteIntervalsRequest, toRemoteOrder, upstreamInfo,
} from './mapping';
import {
  calculatorSchema, createdSchema, historySchema, intervalsSchema, orderDetailSchema, pagedSchema, pointSchema, providerSchema, serviceSchema,
  statusesSchema, statusResultSchema, tariffSchema, upstreamErrorSchema,
} from './wire';

/** Exchanges recorded from a real ShipDesk core acting as the upstream (fixtures/record.ts); no network here. */
const fixture = (name: string): any => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const lists = fixture('lists.json');
const created = fixture('order-create.json');
const statuses = fixture('order-statuses.json');
const refused = fixture('order-refused.json');
const errors = fixture('errors.json');
const calc = fixture('calculator.json');

const CONN = 7;
const base = UPSTREAM_ID_BASE + CONN * 10_000_000_000;
const apiError = (exchange: { status: number; response: unknown }) => new UpstreamApiError(exchange.status, upstreamErrorSchema.parse(exchange.response));

/** The recorded order as a client of this ShipDesk writes it: our service key, our tariff id. */
const ours = (): OrderCreate => {
  const sent = created.create.request;
  return orderCreateSchema.parse({ ...sent, order: { ...sent.order, providerKey: localKey(CONN, 'sandbox-express'), tariffId: base + 103, providerConnectId: CONN } });
};

describe('upstream mapping: keys and ids', () => {
  it('an upstream service is upstream:<connection>:<its key>, and back', () => {
    expect(localKey(3, 'cdek')).toBe('upstream:3:cdek');
    expect(parseLocalKey('upstream:3:cdek')).toEqual({ connectionId: 3, remoteKey: 'cdek' });
    expect(parseLocalKey('upstream:3:upstream:1:cdek')).toEqual({ connectionId: 3, remoteKey: 'upstream:1:cdek' });
    expect(parseLocalKey('sandbox-post')).toBeNull();
    expect(parseLocalKey('upstream:0:x')).toBeNull();
    // The upstream's own upstream services are not mirrored back; keys must still fit order.providerKey (50).
    expect(takesService(3, 'upstream:1:cdek')).toBe(false);
    expect(takesService(3, 'x'.repeat(39))).toBe(true);
    expect(takesService(3, 'x'.repeat(40))).toBe(false);
  });

  it('reference ids get a range per connection, clear of the sandbox and CDEK ids, and translate back', () => {
    expect(localId(CONN, 300527)).toBe(base + 300527);
    expect(localId(1, 0)).toBe(10_010_000_000_000);
    expect(localId(CONN, 10_000_000_000)).toBeNull();
    expect(localId(CONN, -1)).toBeNull();
    expect(localId(899_000, 9_999_999_999)).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
    expect(localId(900_000, 1)).toBeNull();
    expect(remoteIdOf(CONN, base + 300527)).toBe(300527);
    expect(remoteIdOf(CONN, 103)).toBe(103); // an upstream id given as is (lists not synced)
    expect(remoteIdOf(CONN + 1, base + 103)).toBeNull(); // another connection's
  });
});

describe('upstream mapping: lists', () => {
  it('its services keep their capabilities and read "<name> — через «<connection>»"', () => {
    const rows = pagedSchema.parse(lists.providers.response).rows.map((r) => serviceRecordOf(providerSchema.parse(r)));
    expect(rows.map((r) => r.remoteKey)).toEqual(['sandbox-express', 'sandbox-post', 'sandbox-lockers']);
    expect(rows[1].capabilities).toEqual({ cancel: false, update: false, intervals: 'fixed', deliveryTypes: [1, 2], pickupTypes: [2], cod: true });
    expect(upstreamInfo({ id: CONN, name: 'Склад-2' }, rows[2])).toEqual({
      key: 'upstream:7:sandbox-lockers',
      name: 'Песочница Постаматы (тест) — через «Склад-2»',
      description: `${lists.providers.response.rows[2].description} Служба «sandbox-lockers» вышестоящего агрегатора, через «Склад-2».`,
      test: true,
      capabilities: { cancel: true, update: false, intervals: 'none', deliveryTypes: [2], pickupTypes: [1, 2], cod: false },
    });
  });

  it('a service of the public aggregator, which says only key, name and description, lets the upstream decide', () => {
    const record = serviceRecordOf(providerSchema.parse({ key: 'cdek', name: 'СДЭК', description: null }));
    expect(record).toEqual({ remoteKey: 'cdek', name: 'СДЭК', description: '', test: false, capabilities: defaultCapabilities });
    expect(capabilitiesOf({ cancel: false })).toEqual({ ...defaultCapabilities, cancel: false });
  });

  it('tariffs, additional services and points come under our ids and keys, everything else as the upstream says', () => {
    const tariff = lists.tariffs.response.rows[2];
    expect(tariffFromRemote(CONN, tariffSchema.parse(tariff))).toEqual({ ...tariff, id: base + tariff.id, providerKey: 'upstream:7:sandbox-express' });
    const service = lists.services.response[0];
    expect(serviceFromRemote(CONN, serviceSchema.parse(service))).toEqual({ ...service, providerKey: 'upstream:7:sandbox-express' });
    const point = lists.points.response.rows[0];
    expect(pointFromRemote(CONN, pointSchema.parse(point))).toEqual({ ...point, id: base + 300527, providerKey: 'upstream:7:sandbox-lockers' });
  });

  it('a sparse point record (fields the document does not show) still becomes a usable point', () => {
    const sparse = pointSchema.parse({ id: '42', providerKey: 'boxberry', name: 'ПВЗ', city: 'Казань', fittingRoom: true, worktime: { '1': '10:00/20:00', 8: 'x', '2': 'bad' } });
    expect(pointFromRemote(CONN, sparse)).toMatchObject({
      id: base + 42, code: '42', countryCode: 'RU', address: 'Казань', fittingRoom: 1, cod: null, availableOperation: 3, type: 1, enabled: 1,
      worktime: { '1': '10:00/20:00' }, limits: { maxSizeA: null, maxWeight: null },
    });
  });
});

describe('upstream mapping: orders', () => {
  it('the body sent is the interface\'s own, with the upstream\'s key and ids and without our connection id', () => {
    const mapped = toRemoteOrder(ours(), CONN, 'sandbox-express');
    expect(mapped).toEqual({ body: orderCreateSchema.parse(created.create.request) });
  });

  it('a point of ours translates to the upstream\'s; ids of another connection and another providerConnectId are refused', () => {
    const o = ours();
    o.order.pointOutId = base + 300527;
    expect(toRemoteOrder(o, CONN, 'sandbox-express')).toMatchObject({ body: { order: { pointOutId: 300527 } } });
    o.order.pointInId = localId(CONN + 1, 5)!;
    o.order.providerConnectId = 2;
    expect(toRemoteOrder(o, CONN, 'sandbox-express')).toEqual({
      errors: [
        { field: 'order.providerConnectId', message: 'must be 7 (the connection in the service key) or left out', key: 'provider.upstreamConnectionOnly', params: { id: 7 } },
        { field: 'order.pointInId', message: `${localId(CONN + 1, 5)} belongs to another upstream connection`, key: 'provider.upstreamOtherConnection', params: { id: localId(CONN + 1, 5) } },
      ],
    });
  });

  it('reads the transfer at the upstream: uploading, then uploaded with its numbers; uploadingError with its words', () => {
    expect(createdSchema.parse(created.create.response)).toEqual({ orderId: '1', created: created.create.response.created });
    expect(stageOf(statusResultSchema.parse(created.uploading.response).status)).toEqual({ stage: 'pending' });
    const uploaded = statusResultSchema.parse(created.uploaded.response).status;
    expect(stageOf(uploaded)).toEqual({ stage: 'registered' });
    const detail = orderDetailSchema.parse(created.detail.response);
    expect(registrationFrom('1', detail, uploaded)).toEqual({
      providerNumber: 'SBE000000001',
      additionalProviderNumber: '1',
      barcode: '000000000001',
      trackingUrl: 'https://sandbox.shipdesk.invalid/track/SBE000000001',
      registeredAt: parseTimestamp(uploaded.created),
    });
    // Registered, but no delivery number yet: not a registration.
    expect(registrationFrom('1', { ...detail, order: { ...detail.order, providerNumber: '' } }, uploaded)).toBeNull();
    expect(stageOf(statusResultSchema.parse(refused.status.response).status)).toEqual({
      stage: 'failed',
      description: 'sandbox-express refused the order: recipient.city: sandbox-express does not deliver to the door in Владивосток',
      providerCode: 'VALIDATION',
    });
  });

  it('adopts an order found by clientNumber only when it is the one sent (service, phone, weight)', () => {
    const detail = orderDetailSchema.parse(created.detail.response);
    expect(sameShipment(ours(), 'sandbox-express', detail)).toBe(true);
    expect(sameShipment(ours(), 'sandbox-post', detail)).toBe(false);
    const other = ours();
    other.recipient.phone = '+7 999 000-00-00';
    expect(sameShipment(other, 'sandbox-express', detail)).toBe(false);
    other.recipient.phone = '8 (921) 987-65-43'.replace(/^8/, '+7');
    expect(sameShipment(other, 'sandbox-express', detail)).toBe(true);
  });

  it('tells the upstream\'s answers apart: clientNumber taken, refusals with their words and field errors', () => {
    const duplicate = apiError(errors.duplicate);
    expect(clientNumberTaken(duplicate)).toBe(true);
    expect(refusalFrom(duplicate)).toMatchObject({
      description: 'order.clientNumber: clientNumber REC-2 must be unique within the company',
      errors: [{ field: 'order.clientNumber', message: 'clientNumber REC-2 must be unique within the company' }],
      providerCode: '040002',
    });
    expect(apiError(errors.cancelAgain).is('040081')).toBe(true);
    expect(apiError(errors.cancelUnknown)).toMatchObject({ httpStatus: 404, code: '040080' });
    expect(clientNumberTaken(apiError(errors.cannotCancel))).toBe(false);
    expect(refusalFrom(apiError(errors.cannotCancel)).description).toMatch(/^sandbox-post cannot cancel a registered order/);
  });

  it('a change in flight shows as uploading, its verdict as a new uploaded record', () => {
    expect(stageOf(statusResultSchema.parse(errors.afterPut.response).status)).toEqual({ stage: 'pending' });
    expect(statusResultSchema.parse(errors.changed.response).status).toMatchObject({ key: 'uploaded', description: 'Changes accepted by the delivery service' });
  });
});

describe('upstream mapping: statuses', () => {
  it('the history (newest first there) becomes ours oldest first, the upstream\'s own uploading records left out', () => {
    const rows = historySchema.parse(statuses.history.response).rows;
    const mapped = historyFromRemote(rows);
    expect(mapped.map((s) => s.key)).toEqual(['uploaded', 'onPointIn', 'onWay', 'onPointOut', 'delivering']);
    expect(mapped[4]).toEqual({ key: 'delivering', at: parseTimestamp(rows[0].created), providerCode: 'DELIVERING', providerName: 'Передан курьеру' });
    // Its time is the upstream's record time: the one registration reported for `uploaded`.
    expect(mapped[0].at).toBe(parseTimestamp(created.uploaded.response.status.created));
  });

  it('the bulk answer gives each order\'s current status; unknown keys become unknown with their code kept', () => {
    const bulk = statusesSchema.parse(statuses.bulk.response);
    expect(bulk.succeedOrders.map((r) => [r.orderInfo.orderId, r.status.key])).toEqual([['1', 'delivering']]);
    expect(bulk.failedOrders).toEqual([{ orderId: '999999', message: 'Order 999999 was not found' }]);
    const odd = statusFromRemote({ ...bulk.succeedOrders[0].status, key: 'weird', providerCode: '' });
    expect(odd).toMatchObject({ key: 'unknown', providerCode: 'weird' });
    expect(statusFromRemote({ ...bulk.succeedOrders[0].status, created: 'yesterday' })).toBeNull();
  });

  it('items bought out on a partial delivery are counted by item key', () => {
    const detail = orderDetailSchema.parse({
      ...created.detail.response,
      places: [{ items: [{ description: 'Футболка', articul: 'TS-01', quantity: 2, quantityDelivered: 1 }, { description: 'Кепка', quantity: 1, quantityDelivered: 0 }] }],
    });
    expect(quantityDeliveredOf(detail)).toEqual({ 'TS-01': 1, Кепка: 0 });
    expect(quantityDeliveredOf(orderDetailSchema.parse(created.detail.response))).toBeUndefined();
  });
});

describe('upstream mapping: intervals and prices', () => {
  it('intervals are asked for one service and come back under our tariff ids', () => {
    const request = {
      from: resolvePlace(calculatorPlaceSchema.parse({ city: 'Москва' })),
      to: resolvePlace(calculatorPlaceSchema.parse({ city: 'Санкт-Петербург' })),
      distanceKm: 630,
      codKopecks: 0,
      pickupDate: '2026-03-04',
      today: '2026-03-03',
      hour: 9,
    };
    expect(toRemoteIntervalsRequest(request, 'sandbox-express')).toEqual({
      ...calc.intervals.request,
      from: { ...calc.intervals.request.from, lat: 55.7558, lng: 37.6176 },
      to: { ...calc.intervals.request.to, lat: 59.9343, lng: 30.3351 },
    });
    const slots = slotsFromRemote(CONN, 'sandbox-express', intervalsSchema.parse(calc.intervals.response));
    const theirs = calc.intervals.response.deliveryToDoor[0].tariffs;
    expect(slots).toEqual(
      theirs.map((t: any) => ({
        tariffId: base + t.tariffId, tariffProviderId: t.tariffProviderId, tariffName: t.tariffName, pickupType: t.pickupTypes[0], deliveryType: 1, toIntervals: t.toIntervals,
      })),
    );
    expect(slotsFromRemote(CONN, 'sandbox-post', intervalsSchema.parse(calc.intervals.response))).toEqual([]);
  });

  it('prices keep the upstream\'s cost to the kopeck, its fees told apart', () => {
    const quotes = quotesFromRemote(CONN, 'sandbox-express', calculatorSchema.parse(calc.calculator.response));
    const door = calc.calculator.response.deliveryToDoor[0].tariffs[0];
    expect(quotes.find((q) => q.tariffId === base + door.tariffId)).toEqual({
      tariffId: base + door.tariffId,
      tariffProviderId: door.tariffProviderId,
      tariffName: door.tariffName,
      pickupType: door.pickupTypes[0],
      deliveryType: 1,
      transportKopecks: Math.round(door.deliveryCost * 100) - Math.round(door.insuranceFee * 100) - Math.round(door.cashServiceFee * 100),
      insuranceKopecks: Math.round(door.insuranceFee * 100),
      codFeeKopecks: Math.round(door.cashServiceFee * 100),
      daysMin: door.daysMin,
      daysMax: door.daysMax,
    });
    const all = [...calc.calculator.response.deliveryToDoor[0].tariffs, ...calc.calculator.response.deliveryToPoint[0].tariffs];
    expect(quotes.map((q) => q.transportKopecks + q.insuranceKopecks + q.codFeeKopecks)).toEqual(all.map((t: any) => Math.round(t.deliveryCost * 100)));
  });
});

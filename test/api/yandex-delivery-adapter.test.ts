import { PDFDocument } from 'pdf-lib';
import { manualClock } from '../../electron/core/clock';
import { syncCarrierPoints } from '../../electron/core/lists/carrier-reference';

import { ProviderRejectedError, ProviderUnavailableError, type ShipmentRequest, type TrackedShipment } from '../../electron/core/providers/provider';
import { createYandexClient, type YandexClientOptions } from '../../electron/core/providers/yandex-delivery/client';
import { YandexAuthError } from '../../electron/core/providers/yandex-delivery/errors';
import { YANDEX_POINT_ID_BASE } from '../../electron/core/providers/yandex-delivery/points';
import { createYandexProvider, type YandexProvider, type YandexProviderOptions } from '../../electron/core/providers/yandex-delivery/yandex-provider';
import { resolvePlace } from '../../electron/core/calculator/geo';
import { orderCreateSchema, type OrderCreateInput } from '../../shared/schemas/order';
import { yandexOrder } from '../fakes/yandex-delivery/orders';
import { FAKE_YANDEX_TOKEN, generateYandexPoints, startFakeYandex, type FakeYandex, type FakeYandexOptions } from '../fakes/yandex-delivery/server';
import { createTestApp } from '../helpers/test-app';

const HOUR = 60 * 60 * 1000;
const place = (city: string) => resolvePlace({ countryCode: 'RU', city, index: undefined, addressString: undefined, region: undefined });

interface Env {
  fake: FakeYandex;
  yandex: YandexProvider;
  clock: ReturnType<typeof manualClock>;
  app: Awaited<ReturnType<typeof createTestApp>>;
  /** Our point ids of the fake's points that take parcels from shops and that hand them out. */
  dropOff: number;
  pickup: number;
  codPickup: number;
  locker: number;
  shipment(clientNumber: string, patch?: (o: OrderCreateInput) => void, to?: 'door' | 'point'): ShipmentRequest;
  close(): Promise<void>;
}

/** The fake platform on a real port, the real core with the adapter injected, one clock for both; points synced. */
async function setup(fakeOptions: FakeYandexOptions = {}, tune: Partial<Omit<YandexProviderOptions, 'client'>> & { client?: Partial<YandexClientOptions> } = {}): Promise<Env> {
  const clock = manualClock();
  const fake = await startFakeYandex({ now: clock.now, ...fakeOptions });
  const { client: clientTune, ...providerTune } = tune;
  let yandex!: YandexProvider;
  const app = await createTestApp({
    clock,
    providers: ({ reference }) => {
      const client = createYandexClient({ baseUrl: fake.url, token: FAKE_YANDEX_TOKEN, clock, timeoutMs: 5_000, ...clientTune });
      yandex = createYandexProvider({ client, reference, clock, ...providerTune });
      return [yandex];
    },
  });
  if (!clientTune?.token) await syncCarrierPoints({ reference: app.app.stores.reference, clock }, yandex.referenceData.points);
  const idOf = async (predicate: (p: ReturnType<FakeYandex['points']>[number]) => boolean) => {
    const code = fake.points().find(predicate)?.id;
    const row = await app.app.db.selectFrom('points').select('id').where('code', '=', code ?? '').executeTakeFirst();
    return row?.id ?? -1;
  };
  const dropOff = await idOf((p) => p.available_for_dropoff && p.address.locality === 'Москва');
  const pickup = await idOf((p) => p.type === 'pickup_point' && p.address.locality === 'Москва');
  const codPickup = await idOf((p) => p.type === 'pickup_point' && p.payment_methods.includes('cash_on_receipt'));
  const locker = await idOf((p) => p.type === 'terminal');
  return {
    fake,
    yandex,
    clock,
    app,
    dropOff,
    pickup,
    codPickup,
    locker,
    shipment: (clientNumber, patch, to = 'door') => ({
      companyId: 1,
      orderId: 1,
      clientNumber,
      order: orderCreateSchema.parse(yandexOrder(clientNumber, { pointInId: dropOff, ...(to === 'point' ? { toPoint: codPickup } : {}) }, patch)),
    }),
    async close() {
      await app.close();
      await fake.close();
    },
  };
}

const tracked = (s: ShipmentRequest, providerNumber: string): TrackedShipment => ({ providerNumber, request: s });
const pages = async (pdf: Uint8Array) => (await PDFDocument.load(pdf)).getPageCount();

describe('Yandex Delivery adapter against the fake platform over HTTP', () => {
  let env: Env;
  afterEach(() => env?.close());

  describe('registering', () => {
    it('a door delivery is priced (offers/create), booked (offers/confirm) and named by the platform\'s request id, once', async () => {
      env = await setup();
      const s = env.shipment('YA-1');
      const registration = await env.yandex.register(s);
      const atYandex = env.fake.request('YA-1')!;
      expect(registration).toEqual({ providerNumber: atYandex.id, trackingUrl: null });
      expect(env.fake.registrations('YA-1')).toBe(1);
      expect(atYandex.body).toMatchObject({
        info: { operator_request_id: 'YA-1' },
        billing_info: { payment_method: 'cash_on_receipt', delivery_cost: 49050 },
        destination: { type: 'custom_location', custom_location: { details: { locality: 'Москва', house: '37' } } },
        last_mile_policy: 'time_interval',
      });
    });

    it('to a pickup point with cash on delivery; the delivery day the order asks for is the one booked', async () => {
      env = await setup();
      const s = env.shipment('YA-2', (o) => { o.order.deliveryDate = '2026-03-03'; }, 'point');
      await env.yandex.register(s);
      const body = env.fake.request('YA-2')!.body;
      expect(body.destination).toMatchObject({ type: 'platform_station', interval_utc: { from: '2026-03-03T06:00:00.000000Z' } });
      expect(body.source.platform_station.platform_id).toBe(env.fake.points().find((p) => p.available_for_dropoff)!.id);
    });

    it('a day the platform offers nothing on is refused with the field to change, and nothing is booked', async () => {
      env = await setup();
      const error = await env.yandex.register(env.shipment('YA-3', (o) => { o.order.deliveryDate = '2026-04-01'; })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderRejectedError);
      expect((error as ProviderRejectedError).errors).toEqual([expect.objectContaining({ field: 'order.deliveryDate' })]);
      expect(env.fake.registrations('YA-3')).toBe(0);
    });

    it('what ShipDesk can see itself is refused before any call: unknown points, a point that takes no parcels or no cash, a wrong tariff, no warehouse', async () => {
      env = await setup();
      const before = env.fake.http.requests;
      const errorsOf = (patch: (o: OrderCreateInput) => void, to: 'door' | 'point' = 'point') => env.yandex.check(env.shipment('YA-CHK', patch, to).order);
      expect(await errorsOf((o) => { o.order.pointOutId = 999; })).toEqual([expect.objectContaining({ field: 'order.pointOutId' })]);
      expect(await errorsOf((o) => { o.order.pointInId = env.locker; })).toEqual([expect.objectContaining({ field: 'order.pointInId', message: expect.stringMatching(/does not accept/) })]);
      expect(await errorsOf((o) => { o.order.pointOutId = env.locker; })).toEqual([expect.objectContaining({ field: 'cost.codCost' })]);
      expect(await errorsOf((o) => { o.order.tariffId = 9101; })).toEqual([expect.objectContaining({ field: 'order.deliveryType' })]);
      expect(await errorsOf((o) => { o.order.pickupType = 1; o.order.tariffId = 9103; }, 'door')).toEqual([expect.objectContaining({ field: 'order.pickupType', message: expect.stringMatching(/warehouse station named in the connection/) })]);
      expect(await errorsOf((o) => { o.order.pickupType = 1; }, 'door')).toEqual([expect.objectContaining({ field: 'order.pickupType', message: expect.stringMatching(/expects pickupType 2/) }), expect.objectContaining({ field: 'order.pickupType' })]);
      expect(await errorsOf((o) => { o.recipient.street = undefined; }, 'door')).toEqual([expect.objectContaining({ field: 'recipient.street' })]);
      expect(await errorsOf(() => {})).toEqual([]);
      expect(env.fake.http.requests).toBe(before);
    });

    it('with the shop\'s warehouse station in the connection, Yandex collects from it (pickupType 1)', async () => {
      env = await setup({}, { warehouseStationId: 'warehouse-0001' });
      await env.yandex.register(env.shipment('YA-WH', (o) => { o.order.pickupType = 1; o.order.tariffId = 9103; o.order.pointInId = undefined; }));
      expect(env.fake.request('YA-WH')!.body.source).toEqual({ platform_station: { platform_id: 'warehouse-0001' } });
    });

    it('the platform\'s refusal { code, message } comes back as a refusal naming the field', async () => {
      env = await setup();
      const error = await env.yandex.register(env.shipment('YA-4', (o) => { o.recipient.city = 'Урюпинск'; o.recipient.index = undefined; })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderRejectedError);
      expect((error as ProviderRejectedError).message).toBe('Cannot parse destination info (bad_request)');
      expect((error as ProviderRejectedError).errors).toEqual([{ field: 'recipient.addressString', message: 'Cannot parse destination info (bad_request)' }]);
    });
  });

  describe('exactly once', () => {
    it('a reply lost after the platform booked: the lookup by the shop\'s number finds the request instead of booking again', async () => {
      env = await setup({}, { client: { timeoutMs: 300 } });
      const s = env.shipment('YA-LOST');
      env.fake.failNext('hang-after', 1, /offers\/confirm/);
      const error = await env.yandex.register(s).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderUnavailableError);
      expect(env.fake.registrations('YA-LOST')).toBe(1);
      expect(await env.yandex.find(s)).toEqual({ providerNumber: env.fake.request('YA-LOST')!.id, trackingUrl: expect.stringContaining(env.fake.request('YA-LOST')!.id) });
    }, 20_000);

    it('booking a number the platform already has adopts that request (from the duplicate answer), never a second one', async () => {
      env = await setup();
      const s = env.shipment('YA-DUP');
      const first = await env.yandex.register(s);
      const second = await env.yandex.register(s);
      expect(second.providerNumber).toBe(first.providerNumber);
      expect(env.fake.registrations('YA-DUP')).toBe(1);
      expect(env.fake.stats.duplicateRefusals).toBe(1);
    });

    it('an unknown number is not found; a cancelled one cannot be sent again under the same number', async () => {
      env = await setup();
      expect(await env.yandex.find(env.shipment('YA-NONE'))).toBeNull();
      const s = env.shipment('YA-CXL');
      const { providerNumber } = await env.yandex.register(s);
      await env.yandex.cancel(providerNumber);
      const error = await env.yandex.find(s).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderRejectedError);
      expect((error as ProviderRejectedError).errors[0].field).toBe('order.clientNumber');
    });

    it('a lookup the platform answers with an error is a doubt, not an absence: retried later, never re-sent', async () => {
      env = await setup();
      env.fake.failNext('503', 1, /requests\/info/);
      await expect(env.yandex.find(env.shipment('YA-DOUBT'))).rejects.toBeInstanceOf(ProviderUnavailableError);
    });
  });

  describe('statuses over the platform\'s clock', () => {
    it('a door delivery goes from created to delivered as the clock moves, read from its history', async () => {
      env = await setup();
      const s = env.shipment('YA-TRACK');
      const { providerNumber } = await env.yandex.register(s);
      const keysAt = async () => (await env.yandex.track([tracked(s, providerNumber)])).get(providerNumber)!.map((x) => x.key);
      expect(await keysAt()).toEqual(['uploaded', 'uploaded']);
      env.clock.advance(7 * HOUR);
      expect(await keysAt()).toEqual(['uploaded', 'uploaded', 'uploaded', 'onPointIn']);
      env.clock.advance(26 * HOUR);
      expect((await keysAt()).slice(-4)).toEqual(['onWay', 'onPointOut', 'delivering', 'delivered']);
    });

    it('a pickup-point delivery reaches "ready for pickup"; a status the model does not know keeps the key before it', async () => {
      env = await setup();
      const s = env.shipment('YA-PVZ', () => {}, 'point');
      const { providerNumber } = await env.yandex.register(s);
      env.clock.advance(25 * HOUR);
      env.fake.pushStatus(providerNumber, 'BRAND_NEW_STATUS');
      const history = (await env.yandex.track([tracked(s, providerNumber)])).get(providerNumber)!;
      expect(history.slice(-2).map((h) => [h.providerCode, h.key])).toEqual([['DELIVERY_ARRIVED_PICKUP_POINT', 'readyForRecipient'], ['BRAND_NEW_STATUS', 'readyForRecipient']]);
    });

    it('a request the platform does not know is left out; when every call fails the outage is reported', async () => {
      env = await setup();
      const s = env.shipment('YA-GONE');
      expect((await env.yandex.track([tracked(s, 'no-such-udp')])).size).toBe(0);
      env.fake.failNext('500', 2);
      await expect(env.yandex.track([tracked(s, 'a'), tracked(s, 'b')])).rejects.toBeInstanceOf(ProviderUnavailableError);
    });
  });

  describe('cancel', () => {
    it('before handover the cancel is immediate, and repeating it is harmless', async () => {
      env = await setup();
      const s = env.shipment('YA-C1');
      const { providerNumber } = await env.yandex.register(s);
      await env.yandex.cancel(providerNumber);
      expect(env.fake.request('YA-C1')!.status).toBe('CANCELLED');
      await env.yandex.cancel(providerNumber);
      const history = (await env.yandex.track([tracked(s, providerNumber)])).get(providerNumber)!;
      expect(history.at(-1)!.key).toBe('deliveryCanceled');
    });

    it('on its way the platform takes the cancel as a request (CREATED); once delivered it is refused with the platform\'s reason', async () => {
      env = await setup();
      const a = await env.yandex.register(env.shipment('YA-C2'));
      const b = await env.yandex.register(env.shipment('YA-C3'));
      env.clock.advance(7 * HOUR);
      await env.yandex.cancel(a.providerNumber);
      env.clock.advance(10 * 60_000);
      expect(env.fake.request('YA-C2')!.status).toBe('CANCELLED');
      env.clock.advance(30 * HOUR);
      const error = await env.yandex.cancel(b.providerNumber).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProviderRejectedError);
      expect((error as Error).message).toMatch(/DELIVERY_DELIVERED/);
      await expect(env.yandex.cancel('no-such-udp')).rejects.toBeInstanceOf(ProviderRejectedError);
    });
  });

  describe('update (request/edit)', () => {
    it('before handover a new recipient and a new door address go to the platform; sending the same change again is harmless', async () => {
      env = await setup();
      const s = env.shipment('YA-U1');
      const { providerNumber } = await env.yandex.register(s);
      const changed = env.shipment('YA-U1', (o) => {
        o.recipient.contactName = 'Ольга Петрова';
        o.recipient.phone = '+7 (921) 000-11-22';
        o.recipient.street = 'Невский проспект';
        o.recipient.house = '28';
        o.recipient.city = 'Санкт-Петербург';
        o.recipient.index = '191186';
      });
      await env.yandex.update(providerNumber, changed);
      await env.yandex.update(providerNumber, changed);
      const body = env.fake.request('YA-U1')!.body;
      expect(body.recipient_info).toEqual({ first_name: 'Ольга', last_name: 'Петрова', phone: '+79210001122', email: 'anna@example.ru' });
      expect(body.destination).toMatchObject({ type: 'custom_location', custom_location: { details: { locality: 'Санкт-Петербург', street: 'Невский проспект', house: '28' } } });
      expect(env.fake.stats.edits).toBe(2);
      expect(env.fake.registrations('YA-U1')).toBe(1);
    });

    it('a new pickup point is checked as a new request\'s would be; once the parcel is on its way the platform refuses with its words', async () => {
      env = await setup();
      const s = env.shipment('YA-U2', undefined, 'point');
      const { providerNumber } = await env.yandex.register(s);
      // Another point taking cash: the payment stays as booked (request/edit does not change it).
      const first = await env.app.app.db.selectFrom('points').select('code').where('id', '=', env.codPickup).executeTakeFirstOrThrow();
      const other = env.fake.points().find((p) => p.type === 'pickup_point' && p.payment_methods.includes('cash_on_receipt') && p.id !== first.code)!;
      const otherId = (await env.app.app.db.selectFrom('points').select('id').where('code', '=', other.id).executeTakeFirstOrThrow()).id;
      const toOther = env.shipment('YA-U2', (o) => void (o.order.pointOutId = otherId), 'point');
      await env.yandex.update(providerNumber, toOther);
      expect(env.fake.request('YA-U2')!.body.destination).toEqual(expect.objectContaining({ type: 'platform_station', platform_station: { platform_id: other.id } }));
      // A locker taking no cash is refused (cash is collected on this request), and the request keeps its point.
      const toLocker = env.shipment('YA-U2', (o) => void (o.order.pointOutId = env.locker), 'point');
      const refused = await env.yandex.update(providerNumber, toLocker).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ProviderRejectedError);
      expect(env.fake.request('YA-U2')!.body.destination.platform_station.platform_id).toBe(other.id);
      // What ShipDesk can see itself is refused before any call, as at registration.
      await expect(env.yandex.update(providerNumber, env.shipment('YA-U2', (o) => void (o.order.pointOutId = 999), 'point'))).rejects.toBeInstanceOf(ProviderRejectedError);
      env.clock.advance(7 * HOUR);
      const late = await env.yandex.update(providerNumber, toOther).catch((e: unknown) => e);
      expect(late).toBeInstanceOf(ProviderRejectedError);
      expect((late as Error).message).toMatch(/can not be edited in status/);
      await expect(env.yandex.update('no-such-udp', toOther)).rejects.toBeInstanceOf(ProviderRejectedError);
      expect(env.fake.stats.edits).toBe(1);
    });
  });

  describe('print forms', () => {
    it('labels of several requests are one PDF from the platform, a page each; ZPL is refused; the handover act is a PDF too', async () => {
      env = await setup();
      const a = env.shipment('YA-L1');
      const b = env.shipment('YA-L2');
      const ra = await env.yandex.register(a);
      const rb = await env.yandex.register(b);
      const pdf = await env.yandex.labels([tracked(a, ra.providerNumber), tracked(b, rb.providerNumber)], 'pdf');
      expect(await pages(pdf)).toBe(2);
      expect(Buffer.from(pdf).toString('latin1')).toMatch(/^%PDF-/);
      await expect(env.yandex.labels([tracked(a, ra.providerNumber)], 'zpl')).rejects.toBeInstanceOf(ProviderRejectedError);
      expect(await pages(await env.yandex.handoverAct([tracked(a, ra.providerNumber), tracked(b, rb.providerNumber)]))).toBe(1);
      await expect(env.yandex.labels([tracked(a, 'no-such-udp')], 'pdf')).rejects.toBeInstanceOf(ProviderRejectedError);
    });
  });

  describe('the token', () => {
    it('a revoked or expired token is an authorization failure: retried like an outage, with the platform\'s reason, nothing booked', async () => {
      env = await setup();
      env.fake.revokeToken('y0_new-token');
      const error = await env.yandex.register(env.shipment('YA-AUTH')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(YandexAuthError);
      expect(error).toBeInstanceOf(ProviderUnavailableError);
      expect((error as Error).message).toMatch(/Access denied/);
      expect(env.fake.registrations('YA-AUTH')).toBe(0);
      await expect(env.yandex.testConnection()).rejects.toBeInstanceOf(YandexAuthError);
    });

    it('a token past its end on the platform\'s clock stops working the same way', async () => {
      env = await setup({ tokenExpiresAt: Date.UTC(2026, 2, 1, 8) });
      await expect(env.yandex.testConnection()).resolves.toEqual({ expiresInSeconds: null });
      env.clock.advance(2 * HOUR);
      await expect(env.yandex.testConnection()).rejects.toBeInstanceOf(YandexAuthError);
      expect(env.fake.stats.unauthorized).toBe(1);
    });
  });

  describe('transient failures', () => {
    it('429 with Retry-After, 5xx and a call that never answers are outages (retried), the wait honoured', async () => {
      env = await setup({}, { client: { timeoutMs: 200 } });
      const s = env.shipment('YA-T');
      env.fake.failNext('429', 1, /offers\/create/);
      const limited = await env.yandex.register(s).catch((e: unknown) => e);
      expect(limited).toBeInstanceOf(ProviderUnavailableError);
      expect((limited as ProviderUnavailableError).retryAfterMs).toBe(1000);
      env.fake.failNext('502', 1, /offers\/create/);
      await expect(env.yandex.register(s)).rejects.toThrow(/HTTP 502/);
      env.fake.failNext('hang', 1, /offers\/create/);
      await expect(env.yandex.register(s)).rejects.toThrow(/did not answer.*within 200 ms/);
      expect(env.fake.registrations('YA-T')).toBe(0);
      expect((await env.yandex.register(s)).providerNumber).toMatch(/-udp$/);
    });
  });

  describe('reference data', () => {
    it('points come band by band of latitude, each stored once with ids of its own; a second sync keeps the ids and closes a vanished point', async () => {
      env = await setup({ points: generateYandexPoints(30) }, { pointBandDegrees: 5 });
      const db = env.app.app.db;
      const rows = await db.selectFrom('points').select(['id', 'code', 'type', 'enabled']).where('source', '=', 'yandex-delivery').orderBy('id').execute();
      expect(rows).toHaveLength(30);
      expect(new Set(rows.map((r) => r.code)).size).toBe(30);
      expect(rows.every((r) => r.id > YANDEX_POINT_ID_BASE)).toBe(true);
      expect(rows.filter((r) => r.type === 2)).toHaveLength(7);
      expect(env.fake.http.byRoute['POST /api/b2b/platform/pickup-points/list']).toBe(9);

      env.fake.setPoints(generateYandexPoints(29));
      const result = await syncCarrierPoints({ reference: env.app.app.stores.reference, clock: env.clock }, env.yandex.referenceData.points);
      expect(result).toMatchObject({ total: 29, pages: 9, disabled: 1 });
      const again = await db.selectFrom('points').select(['id', 'code', 'enabled']).where('source', '=', 'yandex-delivery').orderBy('id').execute();
      expect(again.map((r) => r.id)).toEqual(rows.map((r) => r.id));
      expect(again.filter((r) => r.enabled === 0).map((r) => r.code)).toEqual([generateYandexPoints(30)[29].id]);
    });

    it('prices both tariffs in kopecks with their terms; a city the platform does not reach gives none', async () => {
      env = await setup();
      const request = { from: place('Москва'), to: place('Санкт-Петербург'), distanceKm: 630, places: [{ weight: 2500 }], assessedKopecks: 250_000, codKopecks: 0, pickupDate: '2026-03-01' };
      expect(await env.yandex.rates(request)).toEqual([
        expect.objectContaining({ tariffId: 9101, deliveryType: 1, transportKopecks: 34_000, daysMin: 3, daysMax: 3 }),
        expect.objectContaining({ tariffId: 9102, deliveryType: 2, transportKopecks: 22_000, daysMin: 3, daysMax: 3 }),
      ]);
      expect(await env.yandex.rates({ ...request, to: place('Урюпинск') })).toEqual([]);
    });

    it('door intervals come as Moscow dates and hours, narrowed to the day asked for', async () => {
      env = await setup();
      const request = { from: place('Москва'), to: place('Москва'), distanceKm: 0, codKopecks: 0, pickupDate: '2026-03-01', today: '2026-03-01', hour: 10 };
      const all = await env.yandex.intervals(request);
      expect(all).toHaveLength(1);
      expect(all[0]).toMatchObject({ tariffId: 9101, deliveryType: 1 });
      expect(all[0].toIntervals).toHaveLength(6);
      const one = await env.yandex.intervals({ ...request, deliveryDate: '2026-03-03' });
      expect(one[0].toIntervals).toEqual([{ date: '2026-03-03', from: '09:00', to: '13:00' }, { date: '2026-03-03', from: '18:00', to: '22:00' }]);
    });
  });
});

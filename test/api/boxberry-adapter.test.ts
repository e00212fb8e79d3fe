import { PDFDocument } from 'pdf-lib';
import { manualClock } from '../../electron/core/clock';
import { syncCarrierPoints } from '../../electron/core/lists/carrier-reference';
import { BOXBERRY_POINT_ID_BASE, createBoxberryProvider, type BoxberryProvider } from '../../electron/core/providers/boxberry/boxberry-provider';
import { BOXBERRY, BoxberryAuthError, createBoxberryClient, type BoxberryClientOptions } from '../../electron/core/providers/boxberry/client';
import type { CourierCallRequest } from '../../electron/core/providers/courier-call';
import { ProviderRejectedError, ProviderUnavailableError, type ShipmentRequest, type TrackedShipment } from '../../electron/core/providers/provider';
import { messageText } from '../../shared/messages';
import { orderCreateSchema, type OrderCreateInput } from '../../shared/schemas/order';
import { boxberryOrder } from '../fakes/boxberry/orders';
import { FAKE_BOXBERRY_TOKEN, generateBoxberryPoints, startFakeBoxberry, type FakeBoxberry, type FakeBoxberryOptions } from '../fakes/boxberry/server';
import { createTestApp } from '../helpers/test-app';

const HOUR = 60 * 60 * 1000;

interface Env {
  fake: FakeBoxberry;
  boxberry: BoxberryProvider;
  clock: ReturnType<typeof manualClock>;
  app: Awaited<ReturnType<typeof createTestApp>>;
  idOf(code: string): Promise<number>;
  dropOff: number;
  target: number;
  shipment(clientNumber: string, patch?: (o: OrderCreateInput) => void, to?: 'door' | 'point'): ShipmentRequest;
  close(): Promise<void>;
}

/** The fake Boxberry on a real port, the real core with the adapter injected, one clock for both; points synced. */
async function setup(fakeOptions: FakeBoxberryOptions = {}, clientTune: Partial<BoxberryClientOptions> = {}): Promise<Env> {
  const clock = manualClock();
  const fake = await startFakeBoxberry({ now: clock.now, ...fakeOptions });
  let boxberry!: BoxberryProvider;
  const app = await createTestApp({
    clock,
    providers: ({ reference }) => {
      const client = createBoxberryClient({ baseUrl: fake.url, token: FAKE_BOXBERRY_TOKEN, clock, timeoutMs: 5_000, ...clientTune });
      boxberry = createBoxberryProvider({ client, reference });
      return [boxberry];
    },
  });
  if (!clientTune.token) await syncCarrierPoints({ reference: app.app.stores.reference, clock }, boxberry.referenceData.points);
  const idOf = async (code: string) => (await app.app.db.selectFrom('points').select('id').where('source', '=', 'boxberry').where('code', '=', code).executeTakeFirst())?.id ?? -1;
  const all = fake.points();
  // A Moscow point taking parcels in, and one taking cash that hands them out.
  const dropOff = await idOf(all.find((p) => p.CityName === 'Москва' && p.ReceptionLaP === 'Yes')!.Code);
  const target = await idOf(all.find((p) => p.CityName === 'Москва' && p.OnlyPrepaidOrders === 'No' && p.Code !== all[0].Code)!.Code);
  return {
    fake,
    boxberry,
    clock,
    app,
    idOf,
    dropOff,
    target,
    shipment: (clientNumber, patch, to = 'point') => ({
      companyId: 1,
      orderId: 1,
      clientNumber,
      order: orderCreateSchema.parse(boxberryOrder(clientNumber, { pointInId: dropOff, ...(to === 'point' ? { toPoint: target } : {}) }, patch)),
    }),
    async close() {
      await app.close();
      await fake.close();
    },
  };
}

const tracked = (s: ShipmentRequest, providerNumber: string): TrackedShipment => ({ providerNumber, request: s });
const pages = async (pdf: Uint8Array) => (await PDFDocument.load(pdf)).getPageCount();

describe('Boxberry adapter against the fake json.php over HTTP', () => {
  let env: Env;
  afterEach(() => env?.close());

  it('a parcel to a point is created once (ParselCreate) and named by Boxberry\'s track; Boxberry got the mapped sdata', async () => {
    env = await setup();
    const registration = await env.boxberry.register(env.shipment('BB-1'));
    const parcel = env.fake.parcel('BB-1')!;
    expect(registration).toEqual({ providerNumber: parcel.track, barcode: parcel.track });
    expect(env.fake.registrations('BB-1')).toBe(1);
    expect(parcel.sdata).toMatchObject({ order_id: 'BB-1', vid: '1', payment_sum: 3350, delivery_sum: 350, shop: { name: env.fake.points().find((p) => p.Code === parcel.sdata.shop.name)!.Code } });
  });

  it('a parcel by courier to the door carries the address for the courier', async () => {
    env = await setup();
    await env.boxberry.register(env.shipment('BB-2', () => {}, 'door'));
    expect(env.fake.parcel('BB-2')!.sdata).toMatchObject({ vid: '2', kurdost: { citi: 'Москва', addressp: 'Мясницкая, д. 10, кв. 4', index: '101000' } });
  });

  it('Boxberry\'s refusal inside HTTP 200 is a refusal naming the field, and nothing is created', async () => {
    env = await setup();
    const error = await env.boxberry.register(env.shipment('BB-3', (o) => { o.recipient.city = 'Урюпинск'; }, 'door')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect((error as ProviderRejectedError).errors).toEqual([{ field: 'recipient.addressString', message: 'Город курьерской доставки не обслуживается' }]);
    expect(env.fake.registrations('BB-3')).toBe(0);
  });

  it('what ShipDesk can see itself is refused before any call: unknown points, a point without reception, a prepaid-only point with COD, a wrong tariff', async () => {
    env = await setup();
    const before = env.fake.http.requests;
    const noReception = await env.idOf(env.fake.points().find((p) => p.ReceptionLaP === 'No')!.Code);
    const prepaidOnly = await env.idOf(env.fake.points().find((p) => p.OnlyPrepaidOrders === 'Yes')!.Code);
    const errorsOf = (patch: (o: OrderCreateInput) => void, to: 'door' | 'point' = 'point') => env.boxberry.check(env.shipment('BB-CHK', patch, to).order);
    expect(await errorsOf((o) => { o.order.pointOutId = 5; })).toEqual([expect.objectContaining({ field: 'order.pointOutId' })]);
    expect(await errorsOf((o) => { o.order.pointInId = noReception; })).toEqual([expect.objectContaining({ field: 'order.pointInId' })]);
    expect(await errorsOf((o) => { o.order.pointOutId = prepaidOnly; })).toEqual([expect.objectContaining({ field: 'cost.codCost' })]);
    expect(await errorsOf((o) => { o.order.tariffId = 9202; })).toEqual([expect.objectContaining({ field: 'order.deliveryType' })]);
    expect(await errorsOf((o) => { o.order.pickupType = 1; })).toEqual([expect.objectContaining({ field: 'order.pickupType' })]);
    expect(await errorsOf(() => {})).toEqual([]);
    expect(env.fake.http.requests).toBe(before);
  });

  it('a reply lost after Boxberry created the parcel: the lookup by the shop\'s number (ParcelInfo) finds it instead of creating it again', async () => {
    env = await setup({}, { timeoutMs: 300 });
    const s = env.shipment('BB-LOST');
    env.fake.failNext('hang-after', 1, /ParselCreate/);
    await expect(env.boxberry.register(s)).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect(await env.boxberry.find(s)).toEqual({ providerNumber: env.fake.parcel('BB-LOST')!.track, barcode: env.fake.parcel('BB-LOST')!.track });
    expect(env.fake.registrations('BB-LOST')).toBe(1);
  });

  it('creating a number Boxberry already has adopts that parcel ("уже существует"), never a second one; an unknown number is not found', async () => {
    env = await setup();
    const s = env.shipment('BB-DUP');
    const first = await env.boxberry.register(s);
    expect((await env.boxberry.register(s)).providerNumber).toBe(first.providerNumber);
    expect(env.fake.registrations('BB-DUP')).toBe(1);
    expect(env.fake.stats.duplicateRefusals).toBe(1);
    expect(await env.boxberry.find(env.shipment('BB-NONE'))).toBeNull();
  });

  it('a lookup that fails is a doubt, not an absence: retried later, never re-sent', async () => {
    env = await setup();
    env.fake.failNext('503', 1, /ParcelInfo/);
    await expect(env.boxberry.find(env.shipment('BB-DOUBT'))).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('statuses by name advance over Boxberry\'s clock up to "Выдано"; a name it never documented keeps the key before it', async () => {
    env = await setup();
    const s = env.shipment('BB-T');
    const { providerNumber } = await env.boxberry.register(s);
    const keys = async () => (await env.boxberry.track([tracked(s, providerNumber)])).get(providerNumber)!.map((h) => h.key);
    expect(await keys()).toEqual(['uploaded']);
    env.clock.advance(31 * HOUR);
    env.fake.pushStatus(providerNumber, 'Совсем новый статус');
    expect(await keys()).toEqual(['uploaded', 'onPointIn', 'onWay', 'onWay', 'onPointOut', 'readyForRecipient', 'readyForRecipient']);
    env.clock.advance(20 * HOUR);
    expect((await keys()).at(-1)).toBe('delivered');
  });

  it('a track Boxberry does not know is left out; when every call fails the outage is reported', async () => {
    env = await setup();
    const s = env.shipment('BB-GONE');
    expect((await env.boxberry.track([tracked(s, '999')])).size).toBe(0);
    env.fake.failNext('500', 2);
    await expect(env.boxberry.track([tracked(s, '1'), tracked(s, '2')])).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('a change before handover goes with updateByTrack; after Boxberry took the parcel it is refused with its words', async () => {
    env = await setup();
    const s = env.shipment('BB-U');
    const { providerNumber } = await env.boxberry.register(s);
    const changed = env.shipment('BB-U', (o) => { o.recipient.contactName = 'Мария Сидорова'; });
    await env.boxberry.update(providerNumber, changed);
    expect(env.fake.parcel('BB-U')!.sdata).toMatchObject({ updateByTrack: providerNumber, customer: { fio: 'Мария Сидорова' } });
    env.clock.advance(7 * HOUR);
    const error = await env.boxberry.update(providerNumber, changed).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect((error as Error).message).toMatch(/изменение невозможно/);
  });

  it('cancel: before handover the parcel is deleted, on its way it is recalled, repeating is harmless, a delivered one is refused', async () => {
    env = await setup();
    const a = await env.boxberry.register(env.shipment('BB-C1'));
    const b = await env.boxberry.register(env.shipment('BB-C2'));
    const c = await env.boxberry.register(env.shipment('BB-C3'));
    await env.boxberry.cancel(a.providerNumber);
    expect(env.fake.parcel('BB-C1')!.status).toBe('Удален');
    await env.boxberry.cancel(a.providerNumber);
    env.clock.advance(7 * HOUR);
    await env.boxberry.cancel(b.providerNumber);
    expect(env.fake.parcel('BB-C2')!.status).toBe('Готовится к возврату');
    await env.boxberry.cancel(b.providerNumber);
    env.clock.advance(50 * HOUR);
    await expect(env.boxberry.cancel(c.providerNumber)).rejects.toThrow(/already handed to the recipient/);
    await expect(env.boxberry.cancel('999')).rejects.toBeInstanceOf(ProviderRejectedError);
  });

  it('labels are the PDFs Boxberry links to, several merged into one file; ZPL is refused; the handover act is its PDF and a second act of the same parcel is refused', async () => {
    env = await setup();
    const a = env.shipment('BB-L1');
    const b = env.shipment('BB-L2');
    const ra = await env.boxberry.register(a);
    const rb = await env.boxberry.register(b);
    expect(await pages(await env.boxberry.labels([tracked(a, ra.providerNumber)], 'pdf'))).toBe(1);
    expect(await pages(await env.boxberry.labels([tracked(a, ra.providerNumber), tracked(b, rb.providerNumber)], 'pdf'))).toBe(2);
    await expect(env.boxberry.labels([tracked(a, ra.providerNumber)], 'zpl')).rejects.toBeInstanceOf(ProviderRejectedError);
    expect(await pages(await env.boxberry.handoverAct([tracked(a, ra.providerNumber), tracked(b, rb.providerNumber)]))).toBe(1);
    expect(env.fake.parcel('BB-L1')!.inAct).toBe(true);
    await expect(env.boxberry.handoverAct([tracked(a, ra.providerNumber)])).rejects.toThrow(/уже включена в акт/);
  });

  it('a wrong token is answered inside HTTP 200 and read as an authorization failure: retried like an outage, nothing created', async () => {
    env = await setup({}, { token: 'someone-elses-token' });
    const error = await env.boxberry.testConnection().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BoxberryAuthError);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as Error).message).toMatch(/Ключ интеграции/);
    expect(env.fake.stats.wrongToken).toBe(1);
  });

  it('429 with Retry-After, 5xx and a call that never answers are outages (retried), the wait honoured', async () => {
    env = await setup({}, { timeoutMs: 200 });
    const s = env.shipment('BB-F');
    env.fake.failNext('429', 1, /ParselCreate/);
    const limited = await env.boxberry.register(s).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(ProviderUnavailableError);
    expect((limited as ProviderUnavailableError).retryAfterMs).toBe(1000);
    env.fake.failNext('502', 1, /ParselCreate/);
    await expect(env.boxberry.register(s)).rejects.toThrow(/HTTP 502/);
    env.fake.failNext('hang', 1, /ParselCreate/);
    await expect(env.boxberry.register(s)).rejects.toThrow(/within 200 ms/);
    expect(env.fake.registrations('BB-F')).toBe(0);
    expect((await env.boxberry.register(s)).providerNumber).toMatch(/^\d+$/);
  });

  it('points come one city a page (ListCities, then ListPoints), each stored once; a second sync keeps ids and closes a vanished point', async () => {
    env = await setup({ points: generateBoxberryPoints(20) });
    const db = env.app.app.db;
    const rows = await db.selectFrom('points').select(['id', 'code', 'type', 'available_operation']).where('source', '=', 'boxberry').orderBy('id').execute();
    expect(rows).toHaveLength(20);
    expect(rows.every((r) => r.id > BOXBERRY_POINT_ID_BASE)).toBe(true);
    expect(rows.filter((r) => r.type === 2)).toHaveLength(4);
    expect(rows.filter((r) => r.available_operation === 2)).toHaveLength(2);
    expect(env.fake.http.byRoute['GET ListPoints']).toBe(4);
    env.fake.setPoints(generateBoxberryPoints(19));
    expect(await syncCarrierPoints({ reference: env.app.app.stores.reference, clock: env.clock }, env.boxberry.referenceData.points)).toMatchObject({ total: 19, pages: 4, disabled: 1 });
    const again = await db.selectFrom('points').select(['id', 'code', 'enabled']).where('source', '=', 'boxberry').orderBy('id').execute();
    expect(again.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect(again.filter((r) => r.enabled === 0).map((r) => r.code)).toEqual([generateBoxberryPoints(20)[19].Code]);
  });

  describe('prices and courier intake', () => {
    const place = (city: string) => ({ countryCode: 'RU', city, known: null, lat: null, lng: null });
    const quoteRequest = (city: string, codKopecks = 0) => ({ from: place('Москва'), to: place(city), distanceKm: null, places: [{ weight: 1500 }, { weight: 700 }], assessedKopecks: 300_000, codKopecks, pickupDate: '2026-03-02' });

    it('prices both tariffs by DeliveryCosts in exact kopecks with their terms: to a point of the city, to the door by the city\'s index', async () => {
      env = await setup();
      // 2 200 g → 3 started kilograms: 200 + 90, 0.5 % of 3 000 ₽ = 15 ₽; the courier adds 150 ₽.
      expect(await env.boxberry.rates(quoteRequest('Казань'))).toEqual([
        { tariffId: 9201, tariffProviderId: '1', tariffName: 'Boxberry: до пункта выдачи', pickupType: 2, deliveryType: 2, transportKopecks: 30_500, insuranceKopecks: 0, codFeeKopecks: 0, daysMin: 3, daysMax: 3 },
        { tariffId: 9202, tariffProviderId: '2', tariffName: 'Boxberry: курьером до двери', pickupType: 2, deliveryType: 1, transportKopecks: 45_500, insuranceKopecks: 0, codFeeKopecks: 0, daysMin: 4, daysMax: 4 },
      ]);
      expect(env.fake.costsAsked()).toBe(2);
    });

    it('a city Boxberry has no point in and no courier index for gives no prices, and no price call is made for it', async () => {
      env = await setup();
      expect(await env.boxberry.rates(quoteRequest('Урюпинск'))).toEqual([]);
      expect(await env.boxberry.rates({ ...quoteRequest('Казань'), to: { ...place('Казань'), city: null } })).toEqual([]);
      expect(env.fake.http.byRoute['GET DeliveryCosts']).toBeUndefined();
    });

    it('with cash to collect only a point taking cash is priced: a city of prepaid-only points gets the door alone; an outage is an outage', async () => {
      env = await setup();
      // The fake's Yekaterinburg points all take prepaid parcels only (the fake refuses to price cash to them).
      expect(env.fake.points().filter((p) => p.CityName === 'Екатеринбург').every((p) => p.OnlyPrepaidOrders === 'Yes')).toBe(true);
      expect((await env.boxberry.rates(quoteRequest('Екатеринбург'))).map((q) => q.tariffId)).toEqual([9201, 9202]);
      expect((await env.boxberry.rates(quoteRequest('Екатеринбург', 335_000))).map((q) => q.tariffId)).toEqual([9202]);
      const last = env.fake.points().filter((p) => p.CityName === 'Екатеринбург').at(-1)!;
      env.fake.setPoints(env.fake.points().map((p) => (p.Code === last.Code ? { ...p, OnlyPrepaidOrders: 'No' as const } : p)));
      expect((await env.boxberry.rates(quoteRequest('Екатеринбург', 335_000))).map((q) => q.tariffId)).toEqual([9201, 9202]);
      env.fake.failNext('500', 1, /DeliveryCosts/);
      await expect(env.boxberry.rates(quoteRequest('Казань'))).rejects.toBeInstanceOf(ProviderUnavailableError);
    });

    const call = (patch: Partial<CourierCallRequest> = {}): CourierCallRequest => ({
      companyId: 1,
      callId: 7,
      date: '2026-03-03',
      timeStart: '10:00',
      timeEnd: '14:00',
      weight: 2400,
      address: { countryCode: 'RU', city: 'Москва', postIndex: '101000', street: 'Тверская', house: '7', office: '12' },
      companyName: 'ООО Ромашка',
      contactName: 'Иван Петров',
      phone: '+7 (916) 123-45-67',
      shipments: [],
      today: '2026-03-02',
      hour: 10,
      ...patch,
    });

    it('a courier intake (CreateIntake) carries where, who, when and which parcels, and is numbered by Boxberry\'s message', async () => {
      env = await setup();
      const s = env.shipment('BB-INTAKE');
      const { providerNumber } = await env.boxberry.register(s);
      const answer = await env.boxberry.courierCalls.create(call({ shipments: [tracked(s, providerNumber)] }));
      expect(answer.providerNumber).toMatch(/^\d+$/);
      expect(env.fake.intake(answer.providerNumber!)).toMatchObject({
        city: 'Москва', zip: '101000', street: 'Тверская', house: '7', flat: '12', contact_name: 'Иван Петров', contact_phone: '+79161234567',
        take_date: '03.03.2026', take_time_from: '10:00', take_time_to: '14:00', seats_count: '1', weight: '2400', comment: `Посылки: ${providerNumber}`,
      });
    });

    it('a courier intake Boxberry refuses (a Sunday, a city it does not collect in) is a refusal with its words; a cancel is refused with the reason, in Russian too', async () => {
      env = await setup();
      const sunday = await env.boxberry.courierCalls.create(call({ date: '2026-03-08' })).catch((e: unknown) => e);
      expect(sunday).toBeInstanceOf(ProviderRejectedError);
      expect((sunday as ProviderRejectedError).message).toBe('Boxberry refused the courier call: В воскресенье забор не осуществляется');
      await expect(env.boxberry.courierCalls.create(call({ address: { countryCode: 'RU', city: 'Урюпинск', street: 'Ленина', house: '1' } }))).rejects.toThrow(/Забор в этом городе не осуществляется/);
      const cancel = await env.boxberry.courierCalls.cancel({ companyId: 1, providerNumber: '7701' }).catch((e: unknown) => e);
      expect(cancel).toBeInstanceOf(ProviderRejectedError);
      expect((cancel as ProviderRejectedError).ref).toEqual({ key: 'provider.noCourierCancel', params: { service: BOXBERRY } });
      expect(messageText((cancel as ProviderRejectedError).ref!, 'ru')).toMatch(/^Boxberry не принимает отмену вызова курьера/);
    });
  });
});

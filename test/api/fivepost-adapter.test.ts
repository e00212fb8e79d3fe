import { PDFDocument } from 'pdf-lib';
import { manualClock } from '../../electron/core/clock';
import { syncCarrierPoints } from '../../electron/core/lists/carrier-reference';
import type { ResolvedPlace } from '../../electron/core/calculator/geo';
import { FivePostAuthError, createFivePostClient, type FivePostClient, type FivePostClientOptions } from '../../electron/core/providers/fivepost/client';
import { FIVEPOST_POINT_ID_BASE, createFivePostProvider, type FivePostProvider } from '../../electron/core/providers/fivepost/fivepost-provider';
import { ProviderRejectedError, ProviderUnavailableError, type ShipmentRequest, type TrackedShipment } from '../../electron/core/providers/provider';
import { orderCreateSchema, type OrderCreateInput } from '../../shared/schemas/order';
import { fivePostOrder } from '../fakes/fivepost/orders';
import { FAKE_FIVEPOST_API_KEY, FAKE_FIVEPOST_WAREHOUSE, generateFivePostPoints, startFakeFivePost, type FakeFivePost, type FakeFivePostOptions } from '../fakes/fivepost/server';
import { createTestApp } from '../helpers/test-app';

const HOUR = 60 * 60 * 1000;

interface Env {
  fake: FakeFivePost;
  client: FivePostClient;
  fivepost: FivePostProvider;
  clock: ReturnType<typeof manualClock>;
  app: Awaited<ReturnType<typeof createTestApp>>;
  idOf(code: string): Promise<number>;
  /** A Moscow store point taking cash, and a Moscow locker (cards only). */
  store: number;
  locker: number;
  shipment(clientNumber: string, patch?: (o: OrderCreateInput) => void, to?: number): ShipmentRequest;
  close(): Promise<void>;
}

/** The fake 5Post on a real port, the real core with the adapter injected, one clock for both; points synced. */
async function setup(fakeOptions: FakeFivePostOptions = {}, clientTune: Partial<FivePostClientOptions> = {}, pageSize = 500): Promise<Env> {
  const clock = manualClock();
  const fake = await startFakeFivePost({ now: clock.now, ...fakeOptions });
  let fivepost!: FivePostProvider;
  let client!: FivePostClient;
  const app = await createTestApp({
    clock,
    providers: ({ reference }) => {
      client = createFivePostClient({ baseUrl: fake.url, apiKey: FAKE_FIVEPOST_API_KEY, clock, timeoutMs: 5_000, ...clientTune });
      fivepost = createFivePostProvider({ client, reference, clock, warehouseId: FAKE_FIVEPOST_WAREHOUSE, testMode: false, pageSize });
      return [fivepost];
    },
  });
  if (!clientTune.apiKey) await syncCarrierPoints({ reference: app.app.stores.reference, clock }, fivepost.referenceData.points);
  const idOf = async (code: string) => (await app.app.db.selectFrom('points').select('id').where('source', '=', 'fivepost').where('code', '=', code).executeTakeFirst())?.id ?? -1;
  const moscow = fake.points().filter((p) => p.address.city === 'Москва');
  const store = await idOf(moscow.find((p) => p.type !== 'POSTAMAT')!.id);
  const locker = await idOf(moscow.find((p) => p.type === 'POSTAMAT')!.id);
  return {
    fake,
    client,
    fivepost,
    clock,
    app,
    idOf,
    store,
    locker,
    shipment: (clientNumber, patch, to) => ({ companyId: 1, orderId: 1, clientNumber, order: orderCreateSchema.parse(fivePostOrder(clientNumber, to ?? store, patch)) }),
    async close() {
      await app.close();
      await fake.close();
    },
  };
}

const tracked = (s: ShipmentRequest, providerNumber: string): TrackedShipment => ({ providerNumber, request: s });
const pages = async (pdf: Uint8Array) => (await PDFDocument.load(pdf)).getPageCount();
const place = (city: string | null): ResolvedPlace => ({ countryCode: 'RU', city, known: null, lat: null, lng: null });
const quoteFor = (city: string | null, weight: number) => ({ from: place('Москва'), to: place(city), distanceKm: null, places: [{ weight }], assessedKopecks: 300_000, codKopecks: 0, pickupDate: '2026-03-02' });

describe('5Post adapter against the fake api-omni over HTTP', () => {
  let env: Env;
  afterEach(() => env?.close());

  it('an order to a store point is created once (POST /api/v3/orders) and named by 5Post\'s orderId; 5Post got the mapped partner order', async () => {
    env = await setup();
    const registration = await env.fivepost.register(env.shipment('FP-1'));
    const order = env.fake.order('FP-1')!;
    expect(registration).toEqual({ providerNumber: order.orderId, barcode: 'FP-1-1' });
    expect(env.fake.registrations('FP-1')).toBe(1);
    const point = env.fake.points().find((p) => p.address.city === 'Москва' && p.type !== 'POSTAMAT')!;
    expect(order.body).toMatchObject({ senderOrderId: 'FP-1', receiverLocation: point.id, senderLocation: FAKE_FIVEPOST_WAREHOUSE, brandName: 'ООО Ромашка', cost: { paymentType: 'CASH', paymentValue: 3350 } });
  });

  it('5Post\'s refusal { success: false, errorCode, errorMsg } is a refusal with its words and code, and nothing is created', async () => {
    env = await setup();
    // The point closed at 5Post since the last sync.
    const gone = env.fake.points().find((p) => p.address.city === 'Москва' && p.type !== 'POSTAMAT')!;
    env.fake.setPoints(env.fake.points().filter((p) => p !== gone));
    const error = await env.fivepost.register(env.shipment('FP-BAD')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect((error as ProviderRejectedError).message).toBe(`5Post: PickupPointDto is null with id = ${gone.id}`);
    expect((error as ProviderRejectedError).providerCode).toBe('400');
    expect(env.fake.registrations('FP-BAD')).toBe(0);
  });

  it('what ShipDesk can see itself is refused before any call: a box bigger than the cell, cash at a locker taking cards only, a door delivery', async () => {
    env = await setup();
    const before = env.fake.http.requests;
    const errorsOf = (patch: (o: OrderCreateInput) => void, to?: number) => env.fivepost.check(env.shipment('FP-CHK', patch, to).order);
    expect(await errorsOf(() => {})).toEqual([]);
    expect(await errorsOf((o) => { o.places![0].length = 70; })).toEqual([expect.objectContaining({ field: 'places.0' })]);
    expect(await errorsOf((o) => { o.places![0].weight = 16_000; o.order.weight = 16_000; })).toEqual([expect.objectContaining({ field: 'places.0.weight' })]);
    expect(await errorsOf(() => {}, env.locker)).toEqual([expect.objectContaining({ field: 'cost.codCost', key: 'rule.noCod' })]);
    expect(await errorsOf((o) => { o.cost.codCost = 0; }, env.locker)).toEqual([]);
    const door = await env.fivepost.register(env.shipment('FP-DOOR', (o) => { o.order.deliveryType = 1; delete o.order.pointOutId; })).catch((e: unknown) => e);
    expect(door).toBeInstanceOf(ProviderRejectedError);
    expect((door as ProviderRejectedError).ref).toEqual({ key: 'rule.noDoorDelivery', params: { name: '5Post' } });
    expect((door as Error).message).toBe('5Post does not deliver to the door');
    expect(env.fake.http.requests).toBe(before);
  });

  it('a reply lost after 5Post created the order: the lookup by the shop\'s number (getOrderStatus) finds it instead of creating it again', async () => {
    env = await setup({}, { timeoutMs: 300 });
    const s = env.shipment('FP-LOST');
    env.fake.failNext('hang-after', 1, /api\/v3\/orders/);
    await expect(env.fivepost.register(s)).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect(await env.fivepost.find(s)).toEqual({ providerNumber: env.fake.order('FP-LOST')!.orderId });
    expect(env.fake.registrations('FP-LOST')).toBe(1);
    expect(await env.fivepost.find(env.shipment('FP-NONE'))).toBeNull();
  });

  it('creating a number 5Post already has answers alreadyCreated with the same order: adopted, never a second one', async () => {
    env = await setup();
    const s = env.shipment('FP-DUP');
    const first = await env.fivepost.register(s);
    expect((await env.fivepost.register(s)).providerNumber).toBe(first.providerNumber);
    expect(env.fake.registrations('FP-DUP')).toBe(1);
    expect(env.fake.stats.alreadyCreated).toBe(1);
  });

  it('a lookup that fails is a doubt, not an absence: retried later, never re-sent', async () => {
    env = await setup();
    env.fake.failNext('503', 1, /getOrderStatus/);
    await expect(env.fivepost.find(env.shipment('FP-DOUBT'))).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('statuses advance over 5Post\'s clock from CREATED to PICKED_UP; an undocumented one keeps the key before it', async () => {
    env = await setup();
    const s = env.shipment('FP-T');
    const { providerNumber } = await env.fivepost.register(s);
    const keys = async () => (await env.fivepost.track([tracked(s, providerNumber)])).get(providerNumber)!.map((h) => h.key);
    expect(await keys()).toEqual(['uploaded']);
    env.clock.advance(49 * HOUR);
    env.fake.pushStatus(providerNumber, 'SOMETHING_NEW', 'NOT_IN_ANY_LIST');
    expect(await keys()).toEqual(['uploaded', 'uploaded', 'onPointIn', 'onWay', 'onWay', 'readyForRecipient', 'readyForRecipient']);
    env.clock.advance(12 * HOUR);
    const history = (await env.fivepost.track([tracked(s, providerNumber)])).get(providerNumber)!;
    expect(history.at(-1)).toMatchObject({ key: 'delivered', providerCode: 'PICKED_UP', providerName: 'Выдан' });
  });

  it('an unclaimed parcel goes back: taken out of the point, returned to the shop', async () => {
    env = await setup();
    const s = env.shipment('FP-BACK');
    const { providerNumber } = await env.fivepost.register(s);
    env.clock.advance(50 * HOUR);
    env.fake.pushStatus(providerNumber, 'UNCLAIMED', 'READY_FOR_WITHDRAW_FROM_PICKUP_POINT', env.clock.now() - 1000);
    env.fake.pushStatus(providerNumber, 'UNCLAIMED', 'WITHDRAWN_FROM_PICKUP_POINT', env.clock.now() - 500);
    env.fake.pushStatus(providerNumber, 'DONE', 'RETURNED_TO_PARTNER');
    const keys = (await env.fivepost.track([tracked(s, providerNumber)])).get(providerNumber)!.map((h) => h.key);
    expect(keys.slice(-3)).toEqual(['returnedFromDelivery', 'returning', 'returned']);
  });

  it('an order 5Post does not know is left out of tracking; when every call fails the outage is reported', async () => {
    env = await setup();
    const s = env.shipment('FP-GONE');
    expect((await env.fivepost.track([tracked(s, '00000000-0000-4000-8000-000000000000')])).size).toBe(0);
    env.fake.failNext('500', 2);
    await expect(env.fivepost.track([tracked(s, 'a'), tracked(s, 'b')])).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('cancel before 5Post\'s warehouse took the order; repeating it is harmless; once at the warehouse it is refused with 5Post\'s words', async () => {
    env = await setup();
    const a = await env.fivepost.register(env.shipment('FP-C1'));
    const b = await env.fivepost.register(env.shipment('FP-C2'));
    await env.fivepost.cancel(a.providerNumber);
    expect(env.fake.order('FP-C1')!.status).toBe('CANCELLED');
    await env.fivepost.cancel(a.providerNumber);
    env.clock.advance(13 * HOUR);
    const late = await env.fivepost.cancel(b.providerNumber).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(ProviderRejectedError);
    expect((late as Error).message).toMatch(/отмена невозможна/);
    expect(env.fake.order('FP-C2')!.status).toBe('IN_PROCESS');
  });

  it('labels are 5Post\'s own: one order one PDF, several a ZIP of PDFs merged into one file; ZPL and an unknown number are refused', async () => {
    env = await setup();
    const a = env.shipment('FP-L1');
    const b = env.shipment('FP-L2');
    const ra = await env.fivepost.register(a);
    const rb = await env.fivepost.register(b);
    expect(await pages(await env.fivepost.labels([tracked(a, ra.providerNumber)], 'pdf'))).toBe(1);
    expect(await pages(await env.fivepost.labels([tracked(a, ra.providerNumber), tracked(b, rb.providerNumber)], 'pdf'))).toBe(2);
    await expect(env.fivepost.labels([tracked(a, ra.providerNumber)], 'zpl')).rejects.toBeInstanceOf(ProviderRejectedError);
    await expect(env.fivepost.labels([tracked(env.shipment('FP-NOPE'), 'x')], 'pdf')).rejects.toThrow(/Order not found: FP-NOPE/);
    expect(env.fake.http.byRoute['POST /api/v1/orderLabels/bySenderOrderId']).toBe(3);
  });

  it('one JWT serves many calls; when it expires on 5Post\'s clock a new one is got before the next call', async () => {
    env = await setup();
    const issuedAfterSync = env.fake.stats.jwtsIssued;
    expect(issuedAfterSync).toBe(1);
    await env.fivepost.register(env.shipment('FP-J1'));
    await env.fivepost.find(env.shipment('FP-J1'));
    expect(env.fake.stats.jwtsIssued).toBe(1);
    env.clock.advance(HOUR);
    await env.fivepost.register(env.shipment('FP-J2'));
    expect(env.fake.stats.jwtsIssued).toBe(2);
    expect(env.fake.stats.expiredJwt).toBe(0);
  });

  it('a JWT 5Post stops accepting before its time (401 "JWT expired") is renewed once and the call repeated', async () => {
    env = await setup();
    env.fake.expireJwts();
    const registration = await env.fivepost.register(env.shipment('FP-J3'));
    expect(registration.providerNumber).toBe(env.fake.order('FP-J3')!.orderId);
    expect(env.fake.stats.expiredJwt).toBe(1);
    expect(env.fake.stats.jwtsIssued).toBe(2);
    expect(env.fake.registrations('FP-J3')).toBe(1);
  });

  it('a wrong API key is an authorization failure (retried like an outage, orders wait); "test connection" says so', async () => {
    env = await setup({}, { apiKey: 'someone-elses-key' });
    const error = await env.fivepost.testConnection().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FivePostAuthError);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as Error).message).toBe('5Post did not accept the API key: 401 Invalid ApiKey');
    expect(env.fake.stats.wrongKey).toBe(1);
  });

  it('"test connection" gets a fresh JWT and tells its lifetime', async () => {
    env = await setup({ jwtLifetimeMs: 30 * 60 * 1000 });
    expect(await env.fivepost.testConnection()).toEqual({ expiresInSeconds: 1800 });
  });

  it('429 with Retry-After, 5xx and a call that never answers are outages (retried), the wait honoured', async () => {
    env = await setup({}, { timeoutMs: 200 });
    const s = env.shipment('FP-F');
    env.fake.failNext('429', 1, /api\/v3\/orders/);
    const limited = await env.fivepost.register(s).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(ProviderUnavailableError);
    expect((limited as ProviderUnavailableError).retryAfterMs).toBe(1000);
    env.fake.failNext('502', 1, /api\/v3\/orders/);
    await expect(env.fivepost.register(s)).rejects.toThrow(/HTTP 502/);
    env.fake.failNext('hang', 1, /api\/v3\/orders/);
    await expect(env.fivepost.register(s)).rejects.toThrow(/within 200 ms/);
    expect(env.fake.registrations('FP-F')).toBe(0);
    expect((await env.fivepost.register(s)).providerNumber).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('points come in 5Post\'s pages (pageNumber, pageSize, totalPages), each stored once; a second sync keeps ids and closes a vanished point', async () => {
    env = await setup({ points: generateFivePostPoints(20) }, {}, 7);
    const db = env.app.app.db;
    const rows = await db.selectFrom('points').select(['id', 'code', 'type', 'available_operation', 'payment_cash']).where('source', '=', 'fivepost').orderBy('id').execute();
    expect(rows).toHaveLength(20);
    expect(rows.every((r) => r.id > FIVEPOST_POINT_ID_BASE)).toBe(true);
    expect(rows.filter((r) => r.type === 2)).toHaveLength(7);
    expect(rows.every((r) => r.available_operation === 2)).toBe(true);
    expect(env.fake.http.byRoute['POST /api/v1/pickuppoints/query']).toBe(3);
    env.fake.setPoints(generateFivePostPoints(19));
    expect(await syncCarrierPoints({ reference: env.app.app.stores.reference, clock: env.clock }, env.fivepost.referenceData.points)).toMatchObject({ total: 19, pages: 3, disabled: 1 });
    const again = await db.selectFrom('points').select(['id', 'enabled', 'code']).where('source', '=', 'fivepost').orderBy('id').execute();
    expect(again.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect(again.filter((r) => r.enabled === 0).map((r) => r.code)).toEqual([generateFivePostPoints(20)[19].id]);
  });

  it('a point 5Post lists in a shape ShipDesk cannot read is skipped, the rest stored', async () => {
    const list = generateFivePostPoints(5);
    (list[2] as any).type = undefined;
    env = await setup({ points: list });
    expect(await syncCarrierPoints({ reference: env.app.app.stores.reference, clock: env.clock }, env.fivepost.referenceData.points)).toMatchObject({ total: 4, skipped: 1 });
  });

  it('prices come from the cheapest zone rate of the city\'s points (no price call): base with VAT plus each started kilogram above 3 kg, term from deliverySL', async () => {
    env = await setup();
    const before = env.fake.http.requests;
    const [quote] = await env.fivepost.rates(quoteFor('Москва', 1200));
    // Moscow's points: 149 ₽ (178.80 with VAT), every 4th 20 ₽ cheaper: 129 ₽ → 154.80 with VAT.
    expect(quote).toEqual({ tariffId: 9401, tariffProviderId: 'zone-1', tariffName: '5Post: до постамата или пункта выдачи', pickupType: 1, deliveryType: 2, transportKopecks: 15480, insuranceKopecks: 0, codFeeKopecks: 0, daysMin: 2, daysMax: 2 });
    expect((await env.fivepost.rates(quoteFor('Москва', 4500)))[0].transportKopecks).toBe(15480 + 2 * 3000);
    expect(await env.fivepost.rates(quoteFor('Урюпинск', 1000))).toEqual([]);
    expect(await env.fivepost.rates(quoteFor(null, 1000))).toEqual([]);
    // The rates of the sync's pass were kept: no call was needed.
    expect(env.fake.http.requests).toBe(before);
  });

  it('without a recent pass over the points, the first price reads the points itself, once for concurrent askers', async () => {
    env = await setup({}, {}, 15);
    env.clock.advance(25 * HOUR);
    const before = env.fake.http.byRoute['POST /api/v1/pickuppoints/query'];
    const [a, b] = await Promise.all([env.fivepost.rates(quoteFor('Казань', 1000)), env.fivepost.rates(quoteFor('Казань', 1000))]);
    expect(a[0].transportKopecks).toBe(b[0].transportKopecks);
    expect(env.fake.http.byRoute['POST /api/v1/pickuppoints/query'] - before).toBe(3);
  });
});

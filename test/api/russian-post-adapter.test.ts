import { PDFDocument } from 'pdf-lib';
import { manualClock } from '../../electron/core/clock';
import { createStoredReference, syncCarrierPoints } from '../../electron/core/lists/carrier-reference';
import { ProviderRejectedError, ProviderUnavailableError, type ShipmentRequest, type TrackedShipment } from '../../electron/core/providers/provider';
import { RussianPostAuthError, createRussianPostClient } from '../../electron/core/providers/russian-post/client';
import { RUSSIAN_POST_POINT_ID_BASE, createRussianPostProvider, type RussianPostProvider } from '../../electron/core/providers/russian-post/russian-post-provider';
import { createPostTracking } from '../../electron/core/providers/russian-post/tracking';
import { orderCreateSchema, type OrderCreateInput } from '../../shared/schemas/order';
import { russianPostOrder } from '../fakes/russian-post/orders';
import {
  FAKE_POST_OFFICE, FAKE_POST_TOKEN, FAKE_POST_TRACKING, FAKE_POST_USER_KEY, generatePostPoints, startFakeRussianPost, type FakePostOptions, type FakeRussianPost,
} from '../fakes/russian-post/server';
import { createTestApp } from '../helpers/test-app';

const HOUR = 60 * 60 * 1000;

interface Tune {
  token?: string;
  trackingPassword?: string;
  timeoutMs?: number;
  singleTrackingMax?: number;
  testMode?: boolean;
}

interface Env {
  fake: FakeRussianPost;
  post: RussianPostProvider;
  clock: ReturnType<typeof manualClock>;
  app: Awaited<ReturnType<typeof createTestApp>>;
  idOf(code: string): Promise<number>;
  office: number;
  locker: number;
  pickupPoint: number;
  shipment(clientNumber: string, to?: 'door' | 'office' | 'ecom', patch?: (o: OrderCreateInput) => void): ShipmentRequest;
  today(): string;
  close(): Promise<void>;
}

/** The fake Russian Post on a real port, the real core with the adapter injected, one clock for both; points synced. */
async function setup(fakeOptions: FakePostOptions = {}, tune: Tune = {}): Promise<Env> {
  const clock = manualClock();
  const fake = await startFakeRussianPost({ now: clock.now, ...fakeOptions });
  let post!: RussianPostProvider;
  const transport = { clock, timeoutMs: tune.timeoutMs ?? 5_000 };
  const app = await createTestApp({
    clock,
    providers: ({ reference }) => {
      const client = createRussianPostClient({ ...transport, baseUrl: fake.url, accessToken: tune.token ?? FAKE_POST_TOKEN, userKey: FAKE_POST_USER_KEY });
      const tracking = createPostTracking({ ...transport, singleUrl: fake.trackingUrls.single, batchUrl: fake.trackingUrls.batch, login: FAKE_POST_TRACKING.login, password: tune.trackingPassword ?? FAKE_POST_TRACKING.password });
      post = createRussianPostProvider({ client, tracking, reference, postofficeCode: FAKE_POST_OFFICE, testMode: tune.testMode, singleTrackingMax: tune.singleTrackingMax });
      return [post];
    },
  });
  if (!tune.token) await syncCarrierPoints({ reference: app.app.stores.reference, clock }, post.referenceData.points);
  const idOf = async (code: string) => (await app.app.db.selectFrom('points').select('id').where('source', '=', 'russian-post').where('code', '=', code).executeTakeFirst())?.id ?? -1;
  const all = fake.points();
  const spb = (type: string) => all.find((p) => p.address.place === 'Санкт-Петербург' && p['delivery-point-type'] === type)!['delivery-point-index'];
  const office = await idOf(spb('POST_OFFICE'));
  const pickupPoint = await idOf(spb('DELIVERY_POINT'));
  const locker = await idOf(all.find((p) => p['delivery-point-type'] === 'PARCEL_LOCKER')!['delivery-point-index']);
  return {
    fake,
    post,
    clock,
    app,
    idOf,
    office,
    locker,
    pickupPoint,
    shipment: (clientNumber, to = 'office', patch) => ({
      companyId: 1,
      orderId: 1,
      clientNumber,
      order: orderCreateSchema.parse(russianPostOrder(clientNumber, to === 'door' ? {} : { toPoint: to === 'ecom' ? pickupPoint : office, ecom: to === 'ecom' }, patch)),
    }),
    today: () => new Date(clock.now() + 3 * HOUR).toISOString().slice(0, 10),
    async close() {
      await app.close();
      await fake.close();
    },
  };
}

const tracked = (s: ShipmentRequest, providerNumber: string, barcode?: string): TrackedShipment => ({ providerNumber, additionalProviderNumber: barcode ?? null, request: s });
const pages = async (pdf: Uint8Array) => (await PDFDocument.load(pdf)).getPageCount();

describe('Russian Post adapter against the fake Otpravka API over HTTP', () => {
  let env: Env;
  afterEach(() => env?.close());

  /** Registers orders and puts them into batches for today; their ids and barcodes. */
  async function batched(...requests: ShipmentRequest[]) {
    const ids: string[] = [];
    for (const r of requests) ids.push((await env.post.register(r)).providerNumber);
    const formed = await env.post.batches.form(requests.map((r, i) => tracked(r, ids[i])), env.today());
    return { ids, formed, barcodeOf: (id: string) => formed.placed.find((p) => p.providerNumber === id)!.barcode };
  }

  it('an order to a post office goes into the backlog ("called for" at the point\'s index) with no ШПИ yet; Russian Post got the mapped order', async () => {
    env = await setup();
    const registration = await env.post.register(env.shipment('RP-1'));
    const order = env.fake.order('RP-1')!;
    expect(registration).toEqual({ providerNumber: String(order.id) });
    expect(order.barcode).toBeNull();
    expect(env.fake.registrations('RP-1')).toBe(1);
    const point = env.fake.points().find((p) => p['delivery-point-index'] === String(order.body['index-to']))!;
    expect(point['delivery-point-type']).toBe('POST_OFFICE');
    expect(order.body).toMatchObject({ 'mail-type': 'POSTAL_PARCEL', 'address-type-to': 'DEMAND', 'postoffice-code': FAKE_POST_OFFICE, payment: 335_000, 'insr-value': 350_000, 'place-to': 'Санкт-Петербург' });
  });

  it('an order to the door carries the address and the courier service; one to a pickup point goes as ECOM to that point', async () => {
    env = await setup();
    await env.post.register(env.shipment('RP-DOOR', 'door'));
    expect(env.fake.order('RP-DOOR')!.body).toMatchObject({ courier: true, 'index-to': 101001, 'street-to': 'Мясницкая', 'house-to': '10', 'room-to': '4' });
    await env.post.register(env.shipment('RP-ECOM', 'ecom'));
    const body = env.fake.order('RP-ECOM')!.body;
    expect(body['mail-type']).toBe('ECOM');
    expect(body['ecom-data']['delivery-point-index']).toBe(String(body['index-to']));
  });

  it('Russian Post\'s refusal of the order inside HTTP 200 is a refusal naming the fields, and nothing is created', async () => {
    env = await setup();
    const error = await env.post.register(env.shipment('RP-BAD', 'door', (o) => { o.recipient.index = '999999'; })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect((error as ProviderRejectedError).errors).toEqual([{ field: 'recipient.index', message: 'Индекс получателя не обслуживается (UNDEFINED_INDEX_TO)' }]);
    expect(env.fake.registrations('RP-BAD')).toBe(0);
    expect(env.fake.stats.refusedOrders).toBe(1);
  });

  it('what ShipDesk can see itself is refused before any call: an unknown point, a parcel "called for" at a locker, a locker\'s weight limit, a drop-off that is not a post office', async () => {
    env = await setup();
    const before = env.fake.http.requests;
    const errorsOf = (to: 'door' | 'office' | 'ecom', patch: (o: OrderCreateInput) => void) => env.post.check(env.shipment('RP-CHK', to, patch).order);
    expect(await errorsOf('office', () => {})).toEqual([]);
    expect(await errorsOf('office', (o) => { o.order.pointOutId = 5; })).toEqual([expect.objectContaining({ field: 'order.pointOutId' })]);
    expect(await errorsOf('office', (o) => { o.order.pointOutId = env.locker; })).toEqual([expect.objectContaining({ field: 'order.pointOutId', message: expect.stringMatching(/not a post office/) })]);
    const heavy = (o: OrderCreateInput) => {
      o.order.pointOutId = env.locker;
      o.order.weight = 16_000;
      o.places[0].weight = 16_000;
    };
    expect((await errorsOf('ecom', heavy)).map((e) => e.message)).toEqual([expect.stringMatching(/takes parcels up to 15 kg/)]);
    expect(await errorsOf('door', (o) => { o.order.pointInId = env.pickupPoint; })).toEqual([expect.objectContaining({ field: 'order.pointInId' })]);
    expect(env.fake.http.requests).toBe(before);
  });

  it('a reply lost after Russian Post created the order: the lookup by the shop\'s number finds it in the backlog instead of creating it again', async () => {
    env = await setup({}, { timeoutMs: 300 });
    const s = env.shipment('RP-LOST');
    env.fake.failNext('hang-after', 1, /PUT \/1\.0\/user\/backlog/);
    await expect(env.post.register(s)).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect(await env.post.find(s)).toEqual({ providerNumber: String(env.fake.order('RP-LOST')!.id) });
    expect(env.fake.registrations('RP-LOST')).toBe(1);
    expect(await env.post.find(env.shipment('RP-NONE'))).toBeNull();
  });

  it('an order already in a batch is found among the batches, with its ШПИ; a lookup that fails is a doubt (retried), never a re-send', async () => {
    env = await setup();
    const s = env.shipment('RP-FB');
    const { ids, barcodeOf } = await batched(s);
    expect(await env.post.find(s)).toEqual({ providerNumber: ids[0], additionalProviderNumber: barcodeOf(ids[0]), barcode: barcodeOf(ids[0]) });
    env.fake.failNext('503', 1, /backlog\/search/);
    await expect(env.post.find(s)).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('a change while in the backlog replaces the order; once it is in a batch Russian Post keeps it and the change is refused', async () => {
    env = await setup();
    const s = env.shipment('RP-U');
    const { providerNumber } = await env.post.register(s);
    await env.post.update(providerNumber, env.shipment('RP-U', 'office', (o) => { o.recipient.contactName = 'Анна Смирнова'; }));
    expect(env.fake.order('RP-U')!.body).toMatchObject({ surname: 'Смирнова', 'given-name': 'Анна' });
    expect(env.fake.stats.updates).toBe(1);
    await env.post.batches.form([tracked(s, providerNumber)], env.today());
    await expect(env.post.update(providerNumber, s)).rejects.toThrow(/already in a batch/);
  });

  it('cancel deletes the order from the backlog, or from its batch before check-in; repeating is harmless; after check-in it is refused', async () => {
    env = await setup();
    const a = await env.post.register(env.shipment('RP-C1'));
    await env.post.cancel(a.providerNumber);
    expect(env.fake.order('RP-C1')).toBeNull();
    await env.post.cancel(a.providerNumber);
    const { ids, formed } = await batched(env.shipment('RP-C2'), env.shipment('RP-C3'));
    await env.post.cancel(ids[0]);
    expect(env.fake.order('RP-C2')).toBeNull();
    await env.post.batches.checkIn(formed.batches[0].name);
    await expect(env.post.cancel(ids[1])).rejects.toThrow(/BATCH_ALREADY_SENT/);
  });

  it('forming batches for a sending date: one batch per mail type, each order gets its 14-digit ШПИ (check digit right); an unknown order is refused by position', async () => {
    env = await setup();
    const reqs = [env.shipment('RP-B1'), env.shipment('RP-B2', 'door'), env.shipment('RP-B3', 'ecom')];
    const ids: string[] = [];
    for (const r of reqs) ids.push((await env.post.register(r)).providerNumber);
    const formed = await env.post.batches.form([...reqs.map((r, i) => tracked(r, ids[i])), tracked(reqs[0], '999')], env.today());
    expect(formed.batches.map((b) => [b.mailType, b.shipments, b.sendingDate])).toEqual([['POSTAL_PARCEL', 2, env.today()], ['ECOM', 1, env.today()]]);
    expect(formed.placed.map((p) => p.providerNumber).sort()).toEqual([...ids].sort());
    for (const p of formed.placed) {
      expect(p.barcode).toMatch(/^101000\d{8}$/);
      const sum = [...p.barcode.slice(0, 13)].reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
      expect(Number(p.barcode[13])).toBe((10 - (sum % 10)) % 10);
      expect(env.fake.order(Number(p.providerNumber))!.barcode).toBe(p.barcode);
    }
    expect(formed.refused).toEqual([{ providerNumber: '999', message: 'NOT_FOUND (NOT_FOUND)' }]);
  });

  it('forming again after a lost reply places the orders in the batches they are already in; a sending date in the past is refused with the service\'s code', async () => {
    env = await setup({}, { timeoutMs: 300 });
    const s = env.shipment('RP-BL');
    const { providerNumber } = await env.post.register(s);
    env.fake.failNext('hang-after', 1, /user\/shipment/);
    await expect(env.post.batches.form([tracked(s, providerNumber)], env.today())).rejects.toBeInstanceOf(ProviderUnavailableError);
    const again = await env.post.batches.form([tracked(s, providerNumber)], env.today());
    expect(again.placed).toEqual([{ providerNumber, batchName: env.fake.order('RP-BL')!.batch, barcode: env.fake.order('RP-BL')!.barcode }]);
    expect(env.fake.batches()).toHaveLength(1);
    await expect(env.post.batches.form([tracked(s, providerNumber)], '2020-01-01')).rejects.toThrow(/PAST_SENDING_DATE/);
  });

  it('check-in sends Ф103 once (repeating is harmless); the Ф103 register prints only after it; in test mode no batch is formed', async () => {
    env = await setup();
    const { formed } = await batched(env.shipment('RP-CI'));
    const name = formed.batches[0].name;
    await expect(env.post.batches.register(name)).rejects.toThrow(/F103_NOT_SENT/);
    await env.post.batches.checkIn(name);
    await env.post.batches.checkIn(name);
    expect(env.fake.stats.checkins).toBe(1);
    expect(env.fake.batch(name)!['batch-status']).toBe('CHECKIN');
    expect(await pages(await env.post.batches.register(name))).toBe(1);
    await env.close();
    env = await setup({}, { testMode: true });
    const s = env.shipment('RP-TEST');
    const { providerNumber } = await env.post.register(s);
    await expect(env.post.batches.form([tracked(s, providerNumber)], env.today())).rejects.toThrow(/test mode/);
    expect(env.post.info).toMatchObject({ test: true, name: 'Почта России (тестовый режим)' });
  });

  it('tracking through the SOAP service: nothing while in the backlog; once checked in, operations advance over the fake\'s clock up to delivered; the ШПИ is asked for when ShipDesk has not stored it', async () => {
    env = await setup();
    const s = env.shipment('RP-T');
    const { providerNumber } = await env.post.register(s);
    expect((await env.post.track([tracked(s, providerNumber)])).size).toBe(0);
    const formed = await env.post.batches.form([tracked(s, providerNumber)], env.today());
    const keys = async (barcode?: string) => (await env.post.track([tracked(s, providerNumber, barcode)])).get(providerNumber)!.map((h) => h.key);
    expect(await keys()).toEqual(['uploaded']);
    await env.post.batches.checkIn(formed.batches[0].name);
    env.clock.advance(31 * HOUR);
    expect(await keys(formed.placed[0].barcode)).toEqual(['uploaded', 'onPointIn', 'onWay', 'onWay', 'onWay', 'readyForRecipient']);
    env.clock.advance(20 * HOUR);
    const history = (await env.post.track([tracked(s, providerNumber, formed.placed[0].barcode)])).get(providerNumber)!;
    expect(history.at(-1)).toMatchObject({ key: 'delivered', providerCode: '2.1', providerName: 'Вручение: Вручение адресату' });
    expect(env.fake.stats.singleTracking).toBe(3);
  });

  it('many barcodes go through a ticket: the first refresh asks for it, the service prepares the answer (error 6 meanwhile), a later refresh reads it', async () => {
    env = await setup({ ticketDelayMs: 15 * 60 * 1000 }, { singleTrackingMax: 1 });
    const reqs = [env.shipment('RP-K1'), env.shipment('RP-K2', 'door'), env.shipment('RP-K3')];
    const { ids, formed, barcodeOf } = await batched(...reqs);
    for (const b of formed.batches) await env.post.batches.checkIn(b.name);
    env.clock.advance(7 * HOUR);
    const shipments = reqs.map((r, i) => tracked(r, ids[i], barcodeOf(ids[i])));
    expect((await env.post.track(shipments)).size).toBe(0);
    expect(env.fake.stats.tickets).toBe(1);
    env.clock.advance(5 * 60 * 1000);
    expect((await env.post.track(shipments)).size).toBe(0);
    expect(env.fake.stats.tickets).toBe(1);
    env.clock.advance(15 * 60 * 1000);
    const answered = await env.post.track(shipments);
    expect([...answered.keys()].sort()).toEqual([...ids].sort());
    expect(answered.get(ids[1])!.map((h) => h.key)).toEqual(['uploaded', 'onPointIn', 'onWay']);
    expect(env.fake.stats.singleTracking).toBe(0);
  });

  it('a tracking login the service refuses (a SOAP Fault) is an authorization failure: retried like an outage', async () => {
    env = await setup({}, { trackingPassword: 'wrong' });
    const s = env.shipment('RP-TA');
    const { ids, barcodeOf } = await batched(s);
    const error = await env.post.track([tracked(s, ids[0], barcodeOf(ids[0]))]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RussianPostAuthError);
    expect((error as Error).message).toMatch(/Неверный логин или пароль/);
    expect(env.fake.stats.trackingAuthFailures).toBe(1);
  });

  it('labels are Russian Post\'s own forms: before a batch the backlog forms; in a batch Ф7 and, for cash on delivery, Ф112; several merged into one PDF; ZPL refused', async () => {
    env = await setup();
    const s = env.shipment('RP-L0');
    const { providerNumber } = await env.post.register(s);
    expect(await pages(await env.post.labels([tracked(s, providerNumber)], 'pdf'))).toBe(1);
    expect(env.fake.http.byRoute['GET /1.0/forms/backlog/{id}/forms']).toBe(1);
    const cod = env.shipment('RP-L1');
    const prepaid = env.shipment('RP-L2', 'office', (o) => { o.cost = { assessedCost: 3500, codCost: 0 }; });
    const { ids } = await batched(cod, prepaid);
    expect(await pages(await env.post.labels([tracked(cod, ids[0])], 'pdf'))).toBe(2);
    expect(await pages(await env.post.labels([tracked(cod, ids[0]), tracked(prepaid, ids[1])], 'pdf'))).toBe(3);
    expect(env.fake.http.byRoute['GET /1.0/forms/{id}/f112pdf']).toBe(2);
    await expect(env.post.labels([tracked(cod, ids[0])], 'zpl')).rejects.toBeInstanceOf(ProviderRejectedError);
  });

  it('the handover act is the batch\'s Ф103 register; an order not yet in a batch is refused, pointing to the dispatch screen', async () => {
    env = await setup();
    const { ids, formed } = await batched(env.shipment('RP-A1'), env.shipment('RP-A2'));
    await env.post.batches.checkIn(formed.batches[0].name);
    const shipments = ids.map((id, i) => tracked(env.shipment(`RP-A${i + 1}`), id));
    expect(await pages(await env.post.handoverAct(shipments))).toBe(1);
    const loose = env.shipment('RP-A3');
    const { providerNumber } = await env.post.register(loose);
    await expect(env.post.handoverAct([tracked(loose, providerNumber)])).rejects.toThrow(/dispatch screen/);
  });

  it('prices for the calculator: each tariff from the shop\'s office to the city\'s head post office, in kopecks with days; a city without a known index gets none', async () => {
    env = await setup();
    const request = {
      from: { countryCode: 'RU', city: 'Москва', known: null, lat: null, lng: null },
      to: { countryCode: 'RU', city: 'Санкт-Петербург', known: null, lat: null, lng: null },
      distanceKm: 630,
      places: [{ weight: 1200, length: 30, width: 20, height: 15 }],
      assessedKopecks: 350_000,
      codKopecks: 0,
      pickupDate: env.today(),
    };
    const quotes = await env.post.rates(request as never);
    expect(quotes.map((q) => [q.tariffId, q.deliveryType, q.daysMin, q.daysMax])).toEqual([[9301, 2, 3, 6], [9302, 1, 3, 6], [9303, 2, 3, 6]]);
    expect(quotes[0].transportKopecks).toBe((25_000 + 3 * 4_000 + 15_000) * 1.2);
    expect(await env.post.rates({ ...request, to: { ...request.to, city: 'Урюпинск' } } as never)).toEqual([]);
    // Новосибирск has an index but the fake serves no such region: its 400 leaves the tariff out.
    expect(await env.post.rates({ ...request, to: { ...request.to, city: 'Новосибирск' } } as never)).toEqual([]);
  });

  it('a wrong access token is answered 401 and read as an authorization failure (retried like an outage); "test connection" checks the shop\'s office too', async () => {
    env = await setup({}, { token: 'not-ours' });
    const error = await env.post.testConnection().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RussianPostAuthError);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as Error).message).toMatch(/Неверный токен/);
    expect(env.fake.stats.unauthorized).toBe(1);
    await env.close();
    env = await setup();
    expect(await env.post.testConnection()).toEqual({ offices: [FAKE_POST_OFFICE] });
  });

  it('429 with Retry-After, 5xx and a call that never answers are outages (retried), the wait honoured; nothing is created meanwhile', async () => {
    env = await setup({}, { timeoutMs: 2000 });
    const s = env.shipment('RP-F');
    env.fake.failNext('429', 1, /user\/backlog/);
    const limited = await env.post.register(s).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(ProviderUnavailableError);
    expect((limited as ProviderUnavailableError).retryAfterMs).toBe(1000);
    env.fake.failNext('502', 1, /user\/backlog/);
    await expect(env.post.register(s)).rejects.toThrow(/HTTP 502/);
    env.fake.failNext('hang', 1, /user\/backlog/);
    await expect(env.post.register(s)).rejects.toThrow(/within 2000 ms/);
    expect(env.fake.registrations('RP-F')).toBe(0);
    expect((await env.post.register(s)).providerNumber).toMatch(/^\d+$/);
  });

  it('points come as one list stored a page at a time, each once: lockers are type 2, post offices type 3, pickup points hand out only; a second sync keeps ids and closes a vanished point', async () => {
    env = await setup({ points: generatePostPoints(30) });
    const db = env.app.app.db;
    const rows = await db.selectFrom('points').select(['id', 'code', 'type', 'available_operation']).where('source', '=', 'russian-post').orderBy('id').execute();
    expect(rows).toHaveLength(30);
    expect(rows.every((r) => r.id > RUSSIAN_POST_POINT_ID_BASE)).toBe(true);
    expect(rows.filter((r) => r.type === 2)).toHaveLength(6);
    expect(rows.filter((r) => r.available_operation === 3)).toHaveLength(16);
    // Post offices are the interface's type 3 (the picker's "post offices"); ECOM delivery points type 1.
    expect(rows.filter((r) => r.type === 3).map((r) => r.id)).toEqual(rows.filter((r) => r.available_operation === 3).map((r) => r.id));
    expect(rows.filter((r) => r.type === 1)).toHaveLength(8);
    env.fake.setPoints(generatePostPoints(29));
    const small = createRussianPostProvider({
      client: createRussianPostClient({ baseUrl: env.fake.url, accessToken: FAKE_POST_TOKEN, userKey: FAKE_POST_USER_KEY }),
      tracking: createPostTracking({ singleUrl: '', batchUrl: '', login: '', password: '' }),
      reference: createStoredReference(env.app.app.stores.reference),
      postofficeCode: FAKE_POST_OFFICE,
      pointsPageSize: 10,
    });
    expect(await syncCarrierPoints({ reference: env.app.app.stores.reference, clock: env.clock }, small.referenceData.points)).toMatchObject({ total: 29, pages: 3, disabled: 1 });
    const again = await db.selectFrom('points').select(['id', 'code', 'enabled']).where('source', '=', 'russian-post').orderBy('id').execute();
    expect(again.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect(again.filter((r) => r.enabled === 0).map((r) => r.code)).toEqual([generatePostPoints(30)[29]['delivery-point-index']]);
  });
});

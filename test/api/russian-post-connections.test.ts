import { PDFDocument } from 'pdf-lib';
import type { Connection, ConnectionKindInfo, ConnectionTestResult } from '../../shared/contract/connections';
import type { TodayDashboard } from '../../shared/contract/dashboard';
import type { PostalBatchInfo } from '../../shared/contract/dispatch';
import type { PrintedFileAnswer } from '../../shared/contract/labels';
import { ErrorCode } from '../../shared/errors';
import { messageText, type MessageRef } from '../../shared/messages';
import type { Result } from '../../shared/result';
import { orderCreateSchema } from '../../shared/schemas/order';
import { russianPostOrder } from '../fakes/russian-post/orders';
import { FAKE_POST_OFFICE, FAKE_POST_TOKEN, FAKE_POST_TRACKING, FAKE_POST_USER_KEY, startFakeRussianPost, type FakeRussianPost } from '../fakes/russian-post/server';
import { drainOutbox } from '../helpers/drain-outbox';
import { startTestServer } from '../helpers/test-server';

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`command failed: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

const HOUR = 60 * 60 * 1000;
const pages = async (answer: PrintedFileAnswer) => (await PDFDocument.load(Buffer.from(answer.base64!, 'base64'))).getPageCount();

describe('Russian Post connections: the account in Settings, sealed; its orders through the outbox; batches, Ф103 and forms from the dispatch screen', () => {
  let fake: FakeRussianPost;
  let env: Awaited<ReturnType<typeof startTestServer>>;
  beforeEach(async () => {
    env = await startTestServer({ carrierTuning: { 'russian-post': { timeoutMs: 5_000 } } });
    fake = await startFakeRussianPost({ now: env.clock.now });
  });
  afterEach(async () => {
    await env.close();
    await fake.close();
  });
  const run = (name: string, input: unknown = {}) => env.app.dispatch(name, env.shop, input);
  const account = (settings: Record<string, string> = {}) => ({
    providerKey: 'russian-post',
    name: 'Почта России',
    baseUrl: fake.url,
    credentials: { accessToken: FAKE_POST_TOKEN, userKey: FAKE_POST_USER_KEY, trackingPassword: FAKE_POST_TRACKING.password },
    settings: { postofficeCode: FAKE_POST_OFFICE, trackingLogin: FAKE_POST_TRACKING.login, trackingUrl: `${fake.url}/tracking`, ...settings },
  });

  it('offered in Settings with its fields from the kinds table and a test mode; connected, its secrets are sealed, "test connection" names the office, and the service lists its operations and tariffs', async () => {
    const kind = value<ConnectionKindInfo[]>(await run('connections.kinds')).find((k) => k.key === 'russian-post')!;
    expect(kind).toMatchObject({ name: 'Почта России', testMode: true, publicTestAccount: false });
    expect(kind.fields.map((f) => [f.name, f.secret, f.required])).toEqual([
      ['accessToken', true, 'always'], ['userKey', true, 'always'], ['postofficeCode', false, 'always'], ['trackingLogin', false, 'never'],
      ['trackingPassword', true, 'never'], ['trackingUrl', false, 'never'], ['parallelCalls', false, 'never'],
    ]);
    const created = value<Connection>(await run('connections.create', account()));
    const stored = await env.app.db.selectFrom('provider_connections').selectAll().executeTakeFirstOrThrow();
    expect(stored.credentials).not.toContain(FAKE_POST_TOKEN);
    expect(stored.credentials).not.toContain(FAKE_POST_USER_KEY);
    expect(value<ConnectionTestResult>(await run('connections.test', { id: created.id }))).toMatchObject({ ok: true, message: `Connected to Russian Post (post office ${FAKE_POST_OFFICE})` });

    const { rows } = (await env.call('GET', '/v1/lists/providers?filter=key=russian-post')).json;
    expect(rows[0].capabilities.operations).toEqual(expect.arrayContaining(['create', 'find', 'update', 'cancel', 'track', 'labels', 'handoverActs', 'rates', 'referenceData']));
    expect(rows[0].capabilities.operations).not.toContain('remove');
    // Its orders get their ШПИ in a batch, and its parcel "called for" (9301) goes to post offices only (point type 3).
    expect(rows[0].capabilities).toMatchObject({ batches: true, tariffPointTypes: { 9301: [3] } });
    expect(rows[0].capabilities.operations).toContain('batches');
    expect(rows[0].capabilities.tariffPointTypes).not.toHaveProperty('9303');
    const tariffs = (await env.call('GET', `/v1/lists/tariffs?filter=${encodeURIComponent('providerKey=russian-post')}`)).json.rows;
    expect(tariffs.map((t: { id: number }) => t.id)).toEqual([9301, 9302, 9303]);

    const elsewhere = value<Connection>(await run('connections.create', account({ postofficeCode: '190000' })));
    const test = value<ConnectionTestResult>(await run('connections.test', { id: elsewhere.id }));
    expect(test.ok).toBe(false);
    expect(test.message).toMatch(/190000 is not among the account's shipping points \(101000\)/);
  });

  /** The account connected and its points synced; `{prefix}-OFFICE` to the post office 190000 and `{prefix}-DOOR` to the door registered in its backlog. */
  async function twoOrdersRegistered(prefix: string) {
    value<Connection>(await run('connections.create', account()));
    await env.app.services.connections.refreshPoints();
    const office = (await env.app.db.selectFrom('points').select('id').where('source', '=', 'russian-post').where('code', '=', '190000').executeTakeFirstOrThrow()).id;
    await env.app.services.orders.create(env.shop, orderCreateSchema.parse(russianPostOrder(`${prefix}-OFFICE`, { toPoint: office })));
    await env.app.services.orders.create(env.shop, orderCreateSchema.parse(russianPostOrder(`${prefix}-DOOR`)));
    await drainOutbox(env.app, env.clock);
  }

  it('orders to a post office and to the door go out through the outbox into the backlog; batches formed from the dispatch screen give them their ШПИ; Ф7/Ф112 print, the check-in sends Ф103 and hands them over, the register prints, tracking follows', async () => {
    await twoOrdersRegistered('RC');
    const rows = () => env.app.db.selectFrom('orders').select(['id', 'client_number', 'status_key', 'provider_number', 'barcode', 'handover_id']).orderBy('client_number').execute();
    const registered = await rows();
    expect(registered.map((o) => [o.client_number, o.status_key, o.provider_number, o.barcode])).toEqual([
      ['RC-DOOR', 'uploaded', String(fake.order('RC-DOOR')!.id), null],
      ['RC-OFFICE', 'uploaded', String(fake.order('RC-OFFICE')!.id), null],
    ]);
    const orderIds = registered.map((o) => String(o.id));

    const today = new Date(env.clock.now() + 3 * HOUR).toISOString().slice(0, 10);
    const formed = value<{ batches: PostalBatchInfo[]; refused: unknown[] }>(await run('dispatch.formPostBatches', { providerKey: 'russian-post', orderIds, sendingDate: today }));
    expect(formed.refused).toEqual([]);
    expect(formed.batches).toEqual([expect.objectContaining({ mailType: 'POSTAL_PARCEL', sendingDate: today, orderIds: [...orderIds].sort(), checkedIn: null })]);
    const withBarcodes = await rows();
    for (const o of withBarcodes) expect(o.barcode).toBe(fake.order(o.client_number)!.barcode);
    // Formed again: nothing new at the service, the orders are in their batch already.
    const again = value<{ refused: { orderId: string; message: string; key?: string; params?: MessageRef['params'] }[] }>(await run('dispatch.formPostBatches', { providerKey: 'russian-post', orderIds, sendingDate: today }));
    // Said by key for the window (Russian too), the interface's English kept as before.
    const byId = [...registered].sort((a, b) => a.id - b.id);
    expect([...again.refused].sort((a, b) => Number(a.orderId) - Number(b.orderId))).toEqual(
      byId.map((o) => ({ orderId: String(o.id), message: `${o.client_number} is in a batch already`, key: 'dispatch.inBatchAlready', params: { number: o.client_number } })),
    );
    expect(again.refused.map((r) => messageText({ key: r.key!, params: r.params }, 'ru')).sort()).toEqual(byId.map((o) => `${o.client_number} уже в партии`).sort());
    expect(fake.batches()).toHaveLength(1);

    const labels = value<PrintedFileAnswer>(await run('orders.labels', { orderIds, format: 'pdf' }));
    expect(labels.failedOrders).toEqual([]);
    expect(await pages(labels)).toBe(4); // Ф7 and Ф112 of each (both carry COD)

    const batch = formed.batches[0];
    const checked = value<PostalBatchInfo>(await run('dispatch.checkInPostBatch', { batchId: batch.id }));
    expect(checked.checkedIn).not.toBeNull();
    expect((await rows()).every((o) => o.handover_id !== null)).toBe(true);
    expect(fake.batch(batch.name)!['batch-status']).toBe('CHECKIN');
    const register = value<PrintedFileAnswer>(await run('orders.waybills', { orderIds }));
    expect(register.failedOrders).toEqual([]);
    expect(await pages(register)).toBe(1);
    expect(value<{ batches: PostalBatchInfo[] }>(await run('dispatch.postBatches')).batches).toEqual([checked]);

    env.clock.advance(7 * HOUR);
    value(await run('statuses.refresh'));
    expect((await env.app.db.selectFrom('orders').select('status_key').execute()).map((o) => o.status_key)).toEqual(['onWay', 'onWay']);
  });

  it('the "Сегодня" dashboard counts Russian Post orders under its name: created, waiting for handover until the batch is checked in, their COD on the way, and the delivery time once delivered', async () => {
    await twoOrdersRegistered('RD');
    const today = async () => value<TodayDashboard>(await run('dashboard.today'));
    const post = { providerKey: 'russian-post', serviceName: 'Почта России' };

    let board = await today();
    expect(board.created.today.byService).toEqual([{ ...post, orders: 2 }]);
    expect(board.awaitingHandover).toEqual({ total: 2, byService: [{ ...post, orders: 2 }] });
    // russianPostOrder collects 3 350 ₽ on delivery; no delivery day is known for Post, so it waits in the undated bar.
    expect(board.codExpected.byService).toEqual([{ ...post, orders: 2, amount: 6700, byDay: [{ date: null, orders: 2, amount: 6700 }] }]);

    const orderIds = (await env.app.db.selectFrom('orders').select('id').execute()).map((o) => String(o.id));
    const sendingDate = new Date(env.clock.now() + 3 * HOUR).toISOString().slice(0, 10);
    const [batch] = value<{ batches: PostalBatchInfo[] }>(await run('dispatch.formPostBatches', { providerKey: 'russian-post', orderIds, sendingDate })).batches;
    expect((await today()).awaitingHandover.total).toBe(2); // in a batch, not handed over yet
    value(await run('dispatch.checkInPostBatch', { batchId: batch.id }));
    board = await today();
    expect(board.awaitingHandover).toEqual({ total: 0, byService: [] });

    // The courier hands the door parcel over 34 h after the check-in, the office one is handed out at 50 h.
    env.clock.advance(40 * HOUR);
    value(await run('statuses.refresh'));
    board = await today();
    expect(board.codExpected.byService).toEqual([expect.objectContaining({ ...post, orders: 1, amount: 3350 })]);
    expect(board.deliveryTimes.byService).toEqual([expect.objectContaining({ ...post, delivered: 1 })]);
    expect(board.deliveryTimes.byService[0].averageDays).toBeGreaterThan(1);
  });

  it('the dispatch screen\'s batch commands refuse what is not theirs: another service, an order not waiting, an unknown batch', async () => {
    value<Connection>(await run('connections.create', account()));
    const refusedService = await run('dispatch.formPostBatches', { providerKey: 'boxberry', orderIds: ['1'], sendingDate: '2030-01-01' });
    expect(refusedService.ok).toBe(false);
    const notWaiting = await run('dispatch.formPostBatches', { providerKey: 'russian-post', orderIds: ['12345'], sendingDate: '2030-01-01' });
    expect(!notWaiting.ok && notWaiting.error.errors).toEqual([{ field: 'orderIds.0', message: 'order 12345 is not waiting to be handed over to russian-post' }]);
    const unknown = await run('dispatch.checkInPostBatch', { batchId: 999 });
    expect(!unknown.ok && unknown.error.code).toBe(ErrorCode.notFound);
  });

  it('a sending date already past in Moscow is refused before the service is asked, in words (Russian too): at 21:30 UTC the UTC day is yesterday there', async () => {
    await twoOrdersRegistered('RP');
    const orderIds = (await env.app.db.selectFrom('orders').select('id').execute()).map((o) => String(o.id));
    // The next 21:30 UTC from the test clock: the UTC day, and a shop in Kaliningrad, are a day behind Moscow.
    const utcDay = new Date(env.clock.now() + 24 * HOUR).toISOString().slice(0, 10);
    env.clock.set(Date.parse(`${utcDay}T21:30:00Z`));
    const moscowToday = new Date(Date.parse(`${utcDay}T00:00:00Z`) + 24 * HOUR).toISOString().slice(0, 10);
    const past = await run('dispatch.formPostBatches', { providerKey: 'russian-post', orderIds, sendingDate: utcDay });
    expect(!past.ok && past.error.code).toBe(ErrorCode.validation);
    const [error] = (!past.ok && past.error.errors) || [];
    expect(error).toMatchObject({ field: 'sendingDate', key: 'dispatch.pastSendingDate', params: { date: utcDay, today: moscowToday } });
    expect(error.message).toBe(`The sending date ${utcDay} has passed: Russian Post counts days in Moscow time, where it is ${moscowToday} now`);
    const ruDay = (iso: string) => iso.split('-').reverse().join('.'); // the window's form of a date in Russian
    expect(messageText(error as MessageRef, 'ru')).toBe(`Дата отправки ${ruDay(utcDay)} уже прошла: Почта России считает дни по московскому времени, а в Москве сейчас ${ruDay(moscowToday)}`);
    expect(fake.batches()).toEqual([]);
    // Moscow's today is accepted by us and by the service.
    const formed = value<{ batches: PostalBatchInfo[] }>(await run('dispatch.formPostBatches', { providerKey: 'russian-post', orderIds, sendingDate: moscowToday }));
    expect(formed.batches.map((b) => b.sendingDate)).toEqual([moscowToday]);
  });
});

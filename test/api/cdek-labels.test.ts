import { PDFDocument } from 'pdf-lib';
import { cdekOrder } from '../fakes/cdek/orders';
import { FAKE_TEST_ACCOUNT, startFakeCdek, type FakeCdek } from '../fakes/cdek/server';
import { orderPayload } from '../helpers/payloads';
import { startTestServer } from '../helpers/test-server';
import type { Result } from '../../shared/result';
import type { PrintedFileAnswer } from '../../shared/contract/labels';
import { messageText } from '../../shared/messages';
import { ownerOf } from '../../electron/core/auth/caller';

const quick = { timeoutMs: 5_000, pollDelaysMs: [0, 0, 0], sleep: async () => {} };

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`command failed: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

describe('barcode labels: the delivery service prints them, the shop gets one PDF', () => {
  let fake: FakeCdek;
  let env: Awaited<ReturnType<typeof startTestServer>>;
  beforeEach(async () => {
    fake = await startFakeCdek();
    env = await startTestServer({ cdek: quick });
    value(await run('connections.create', { providerKey: 'cdek', name: 'Склад', baseUrl: fake.url, credentials: FAKE_TEST_ACCOUNT }));
  });
  afterEach(async () => {
    await env.close();
    await fake.close();
  });

  const run = (name: string, input: unknown = {}, ctx = env.shop) => env.app.dispatch(name, ctx, input);

  async function registeredCdekOrder(clientNumber: string) {
    const { orderId } = value<{ orderId: string }>(await run('orders.create', cdekOrder(clientNumber)));
    await env.app.outbox.drain();
    return orderId;
  }

  it('labels of two registered CDEK orders come back as one PDF, and the order screen offers the action', async () => {
    const a = await registeredCdekOrder('LBL-1');
    const b = await registeredCdekOrder('LBL-2');
    expect(value<{ actions: { labels: boolean } }>(await run('orders.get', { orderId: a })).actions.labels).toBe(true);

    const labels = value<{ fileName: string; base64: string; orders: number }>(await run('orders.labels', { orderIds: [a, b] }));
    expect(labels).toMatchObject({ fileName: 'labels-2.pdf', orders: 2 });
    expect(Buffer.from(labels.base64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    expect(fake.stats.byRoute['POST /v2/print/barcodes']).toBe(1);

    const one = value<{ fileName: string }>(await run('orders.labels', { orderIds: [a] }));
    expect(one.fileName).toBe('label-LBL-1.pdf');
  });

  it('CDEK labels and drawn labels come out in one PDF in the asked order; failures are listed with the reason', async () => {
    const { orderId: pending } = value<{ orderId: string }>(await run('orders.create', cdekOrder('LBL-3')));
    await env.app.outbox.drain();
    // Registered by now; a later CDEK order stays pending because the outbox is not drained for it.
    const { orderId: sandbox } = value<{ orderId: string }>(await run('orders.create', orderPayload('LBL-SANDBOX')));
    await env.app.outbox.drain();
    expect(value<{ actions: { labels: boolean } }>(await run('orders.get', { orderId: sandbox })).actions.labels).toBe(true);
    const { orderId: unregistered } = value<{ orderId: string }>(await run('orders.create', cdekOrder('LBL-5')));

    const mixed = value<PrintedAnswer>(await run('orders.labels', { orderIds: [pending, sandbox, unregistered] }));
    expect(mixed.failedOrders).toEqual([{ orderId: unregistered, message: expect.stringContaining('not registered with its delivery service yet'), key: 'printable.notRegistered', params: { orderId: unregistered } }]);
    const pdf = await PDFDocument.load(Buffer.from(mixed.base64!, 'base64'));
    // The fake's CDEK form is one page, then ShipDesk's 100×150 mm label of the sandbox order.
    expect(pdf.getPageCount()).toBe(2);
    expect(Math.round(pdf.getPage(1).getWidth())).toBe(283);

    expect(value<PrintedAnswer>(await run('orders.labels', { orderIds: [pending] }, ownerOf(env.companyA.companyId))).failedOrders).toEqual([{ orderId: pending, message: `Order ${pending} not found`, key: 'printable.notFound', params: { orderId: pending } }]);
    expect(await run('orders.labels', { orderIds: [] })).toMatchObject({ ok: false, error: { code: '040002' } });
  });

  it('CDEK prints PDF only, and a CDEK that does not answer leaves its orders out with a message to try again', async () => {
    const cdek = await registeredCdekOrder('LBL-6');
    const zpl = value<PrintedAnswer>(await run('orders.labels', { orderIds: [cdek], format: 'zpl' }));
    expect(zpl).toMatchObject({ base64: null, orders: 0, failedOrders: [{ orderId: cdek, message: expect.stringContaining('PDF only') }] });

    await fake.close();
    const down = value<PrintedAnswer>(await run('orders.labels', { orderIds: [cdek] }));
    expect(down.base64).toBeNull();
    expect(down.failedOrders).toEqual([{ orderId: cdek, message: expect.stringMatching(/СДЭК is not answering \(CDEK could not be reached.*try again/), key: 'printable.serviceNotAnswering', params: expect.objectContaining({ service: 'СДЭК' }) }]);
    // The window says it in Russian, the failure's own reason by its key too.
    expect(messageText({ key: down.failedOrders[0].key!, params: down.failedOrders[0].params }, 'ru')).toMatch(/^СДЭК не отвечает \(СДЭК: нет связи \(POST \/print\/barcodes\): .+\); попробуйте через несколько минут$/);
    fake = await startFakeCdek();
  });
});

describe('handover acts: CDEK prints its own waybills, other services get a drawn act', () => {
  let fake: FakeCdek;
  let env: Awaited<ReturnType<typeof startTestServer>>;
  const run = (name: string, input: unknown = {}) => env.app.dispatch(name, env.shop, input);
  beforeEach(async () => {
    fake = await startFakeCdek({ printPollsUntilReady: 2 });
    env = await startTestServer({ cdek: quick });
    value(await run('connections.create', { providerKey: 'cdek', name: 'Склад', baseUrl: fake.url, credentials: FAKE_TEST_ACCOUNT }));
  });
  afterEach(async () => {
    await env.close();
    await fake.close();
  });

  it('the CDEK orders\' act is CDEK\'s waybills print form, the sandbox order\'s act is drawn, both in one file', async () => {
    const a = value<{ orderId: string }>(await run('orders.create', cdekOrder('ACT-1'))).orderId;
    const b = value<{ orderId: string }>(await run('orders.create', cdekOrder('ACT-2'))).orderId;
    const sandbox = value<{ orderId: string }>(await run('orders.create', orderPayload('ACT-SANDBOX'))).orderId;
    await env.app.outbox.drain();

    const acts = value<PrintedAnswer>(await run('orders.waybills', { orderIds: [a, sandbox, b] }));
    expect(acts.failedOrders).toEqual([]);
    expect(fake.stats.byRoute['POST /v2/print/orders']).toBe(1);
    expect(fake.stats.byRoute['GET /v2/print/orders/{uuid}']).toBe(2); // polled until READY
    const bytes = Buffer.from(acts.base64!, 'base64');
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBe(2); // CDEK's form, then ShipDesk's act of the sandbox order
    // The fake writes the CDEK numbers of the orders on its form: both orders, in the asked order.
    const numbers = (await env.app.db.selectFrom('orders').select(['id', 'provider_number']).where('id', 'in', [Number(a), Number(b)]).orderBy('id').execute()).map((r) => r.provider_number);
    expect(bytes.toString('latin1')).toContain(`CDEK waybills: ${numbers.join(', ')}`);
    expect(fake.stats.byRoute['POST /v2/print/barcodes']).toBeUndefined();
  });

  it('a CDEK that does not answer leaves its orders out of the acts with a message; the drawn act still comes', async () => {
    const a = value<{ orderId: string }>(await run('orders.create', cdekOrder('ACT-3'))).orderId;
    const sandbox = value<{ orderId: string }>(await run('orders.create', orderPayload('ACT-SANDBOX-2'))).orderId;
    await env.app.outbox.drain();
    await fake.close();
    const acts = value<PrintedAnswer>(await run('orders.waybills', { orderIds: [a, sandbox] }));
    expect(acts.failedOrders).toEqual([{ orderId: a, message: expect.stringMatching(/^СДЭК is not answering/), key: 'printable.serviceNotAnswering', params: expect.objectContaining({ service: 'СДЭК' }) }]);
    expect((await PDFDocument.load(Buffer.from(acts.base64!, 'base64'))).getPageCount()).toBe(1);
    fake = await startFakeCdek();
  });
});

type PrintedAnswer = PrintedFileAnswer;

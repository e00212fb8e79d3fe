import { cdekOrder } from '../fakes/cdek/orders';
import { FAKE_TEST_ACCOUNT, startFakeCdek, type FakeCdek } from '../fakes/cdek/server';
import { orderPayload } from '../helpers/payloads';
import { startTestServer } from '../helpers/test-server';
import type { Result } from '../../shared/result';

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

  it('an order not registered yet, a service that prints no labels, and another company\'s order are refused clearly', async () => {
    const { orderId: pending } = value<{ orderId: string }>(await run('orders.create', cdekOrder('LBL-3')));
    expect(await run('orders.labels', { orderIds: [pending] })).toMatchObject({ ok: false, error: { code: '040002', errors: [{ field: 'orderIds.0' }] } });
    expect(value<{ actions: { labels: boolean } }>(await run('orders.get', { orderId: pending })).actions.labels).toBe(false);

    const { orderId: sandbox } = value<{ orderId: string }>(await run('orders.create', orderPayload('LBL-SANDBOX')));
    await env.app.outbox.drain();
    expect(await run('orders.labels', { orderIds: [sandbox] })).toMatchObject({ ok: false, error: { code: '040306' } });
    expect(value<{ actions: { labels: boolean } }>(await run('orders.get', { orderId: sandbox })).actions.labels).toBe(false);

    const cdek = await registeredCdekOrder('LBL-4');
    expect(await run('orders.labels', { orderIds: [cdek, sandbox] })).toMatchObject({ ok: false, error: { code: '040002', errors: [{ field: 'orderIds' }] } });
    expect(await run('orders.labels', { orderIds: [cdek] }, env.companyA)).toMatchObject({ ok: false, error: { code: '040080' } });
    expect(await run('orders.labels', { orderIds: [] })).toMatchObject({ ok: false, error: { code: '040002' } });
  });
});

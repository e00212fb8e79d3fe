import { PDFDocument } from 'pdf-lib';
import { messageText, type MessageRef } from '../../shared/messages';
import { crop, decodeBarcode, pdfText, renderPage } from '../helpers/printed-pages';
import { orderPayload } from '../helpers/payloads';
import { sandboxPayload } from '../helpers/sandbox-orders';
import { startTestServer, type TestServer } from '../helpers/test-server';

const barcodeBand = { x: 0, y: 0.08, width: 1, height: 0.25 };

describe('labels over the interface: POST /orders/labels gives one file for the whole selection', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => server.close());

  async function registered(providerKey: 'sandbox-express' | 'sandbox-post' | 'sandbox-lockers', clientNumber: string, token?: string) {
    const created = await server.call('POST', '/orders', { body: await sandboxPayload(server.app.db, providerKey, clientNumber), token });
    expect(created.status, created.text).toBe(200);
    await server.app.outbox.drain();
    const order = await server.call('GET', `/orders/${created.json.orderId}`, { token });
    expect(order.json.order.providerNumber).not.toBe('');
    return { orderId: created.json.orderId as string, providerNumber: order.json.order.providerNumber as string };
  }

  /** Opens a link the way a plugin does: a plain GET, no headers. */
  const open = async (url: string) => {
    const res = await fetch(url);
    return { status: res.status, type: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()) };
  };

  it('three built-in services, one PDF link that opens without headers: a 100×150 mm page per order, in the asked order', async () => {
    const orders = [await registered('sandbox-post', 'L-1'), await registered('sandbox-express', 'L-2'), await registered('sandbox-lockers', 'L-3')];
    const res = await server.call('POST', '/orders/labels', { body: { orderIds: orders.map((o) => Number(o.orderId)), format: 'pdf' } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.failedOrders).toEqual([]);
    expect(res.json.url).toMatch(new RegExp(`^${server.base}/v1/files/[\\w-]{43}$`));

    const file = await open(res.json.url);
    expect(file).toMatchObject({ status: 200, type: 'application/pdf' });
    const pdf = await PDFDocument.load(file.bytes);
    expect(pdf.getPageCount()).toBe(3);
    expect(pdf.getPages().map((p) => [Math.round(p.getWidth()), Math.round(p.getHeight())])).toEqual(Array(3).fill([283, 425]));
    for (const [i, order] of orders.entries()) expect(decodeBarcode(crop(renderPage(file.bytes, i + 1), barcodeBand), 'code128')).toBe(order.providerNumber);
    const text = pdfText(file.bytes);
    expect(text).toContain('Песочница');
    expect(text).toContain('L-1');
  });

  it('ZPL: one stream with one ^XA … ^XZ label per order, the service number in the Code 128 field', async () => {
    const orders = [await registered('sandbox-express', 'Z-1'), await registered('sandbox-post', 'Z-2')];
    const res = await server.call('POST', '/orders/labels', { body: { orderIds: orders.map((o) => o.orderId), format: 'zpl' } });
    const file = await open(res.json.url);
    expect(file.type).toBe('text/plain; charset=utf-8');
    const zpl = new TextDecoder().decode(file.bytes);
    const blocks = zpl.match(/\^XA[\s\S]*?\^XZ/g) ?? [];
    expect(blocks.map((b) => /\^BCN[^^]*\^FH_\^FD([^^]*)\^FS/.exec(b)?.[1])).toEqual(orders.map((o) => o.providerNumber));
  });

  it('A4 from the third quarter: two labels fill the bottom half of one sheet', async () => {
    const orders = [await registered('sandbox-express', 'A-1'), await registered('sandbox-express', 'A-2')];
    const res = await server.call('POST', '/orders/labels', { body: { orderIds: orders.map((o) => o.orderId), size: 'A4', startQuarter: 3 } });
    const pdf = await PDFDocument.load((await open(res.json.url)).bytes);
    expect(pdf.getPages().map((p) => [Math.round(p.getWidth()), Math.round(p.getHeight())])).toEqual([[595, 842]]);
  });

  it('orders that cannot be printed are listed with the reason, the rest is printed', async () => {
    const printed = await registered('sandbox-express', 'F-1');
    const canceled = await registered('sandbox-express', 'F-3');
    await server.call('GET', `/orders/${canceled.orderId}/cancel`);
    const foreign = await registered('sandbox-express', 'F-4', server.tokenB);
    const pending = (await server.call('POST', '/orders', { body: orderPayload('F-2') })).json.orderId;

    const res = await server.call('POST', '/orders/labels', { body: { orderIds: [printed.orderId, pending, canceled.orderId, foreign.orderId, 999999, 'abc'] } });
    expect(res.status).toBe(200);
    expect(res.json.failedOrders).toEqual([
      { orderId: Number(pending), message: `Order ${pending} is not registered with its delivery service yet, so it has no service number to print` },
      { orderId: Number(canceled.orderId), message: `Order ${canceled.orderId} is canceled: a canceled order is not printed` },
      { orderId: Number(foreign.orderId), message: `Order ${foreign.orderId} not found` },
      { orderId: 999999, message: 'Order 999999 not found' },
      { orderId: 'abc', message: 'Order abc not found' },
    ]);
    expect((await PDFDocument.load((await open(res.json.url)).bytes)).getPageCount()).toBe(1);

    const none = await server.call('POST', '/orders/labels', { body: { orderIds: [pending] } });
    expect(none.json).toEqual({ url: null, failedOrders: [expect.objectContaining({ orderId: Number(pending) })] });
  });

  it('the window gets each left-out order\'s reason by key, said in Russian; the interface keeps its English alone', async () => {
    const canceled = await registered('sandbox-express', 'W-1', server.shopToken);
    await server.call('GET', `/orders/${canceled.orderId}/cancel`, { token: server.shopToken });
    const pending = (await server.call('POST', '/orders', { body: orderPayload('W-2'), token: server.shopToken })).json.orderId as string;

    const window = await server.call('POST', '/app/commands/orders.labels', { body: { orderIds: [canceled.orderId, pending, 'abc'] }, token: server.owner });
    expect(window.status, window.text).toBe(200);
    const failed = window.json.value.failedOrders as { orderId: string; message: string; key: string; params: MessageRef['params'] }[];
    expect(failed).toEqual([
      { orderId: canceled.orderId, message: `Order ${canceled.orderId} is canceled: a canceled order is not printed`, key: 'printable.canceled', params: { orderId: canceled.orderId } },
      { orderId: pending, message: `Order ${pending} is not registered with its delivery service yet, so it has no service number to print`, key: 'printable.notRegistered', params: { orderId: pending } },
      { orderId: 'abc', message: 'Order abc not found', key: 'printable.notFound', params: { orderId: 'abc' } },
    ]);
    expect(failed.map((f) => messageText(f, 'ru'))).toEqual([
      `Заказ ${canceled.orderId} отменён: отменённые заказы не печатаются`,
      `Заказ ${pending} ещё не передан в службу доставки, поэтому у него нет номера службы для печати`,
      'Заказ abc не найден',
    ]);

    const api = await server.call('POST', '/orders/labels', { body: { orderIds: [canceled.orderId] }, token: server.shopToken });
    expect(api.json.failedOrders).toEqual([{ orderId: Number(canceled.orderId), message: `Order ${canceled.orderId} is canceled: a canceled order is not printed` }]);
  });

  it('the link belongs to its company and expires; bad requests get the interface\'s error body', async () => {
    const order = await registered('sandbox-express', 'K-1');
    const { url } = (await server.call('POST', '/orders/labels', { body: { orderIds: [order.orderId] } })).json;
    const path = new URL(url).pathname;
    expect((await server.call('GET', path, { token: server.tokenB })).status).toBe(404);
    expect((await server.call('GET', path, { token: server.tokenA })).status).toBe(200);
    expect((await server.call('GET', '/v1/files/not-a-real-link', { token: null })).json).toMatchObject({ code: '040016' });
    server.clock.advance(11 * 60_000);
    expect((await open(url)).status).toBe(404);

    for (const body of [{}, { orderIds: [] }, { orderIds: Array.from({ length: 101 }, (_, i) => i + 1) }, { orderIds: [1], format: 'png' }, { orderIds: [1], size: 'A5' }, { orderIds: [1], startQuarter: 5 }]) {
      const bad = await server.call('POST', '/orders/labels', { body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.json.code).toBe('040002');
    }
    expect((await server.call('POST', '/orders/labels', { body: { orderIds: [1] }, token: 'nope' })).status).toBe(401);
  });
});

describe('handover acts over the interface: POST /orders/waybills gives one act per delivery service', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => server.close());

  it('an act per service with a row per order and the totals of places, weight and money', async () => {
    const ids: string[] = [];
    for (const [key, n] of [['sandbox-express', 'W-1'], ['sandbox-post', 'W-2'], ['sandbox-express', 'W-3']] as const) {
      const payload = await sandboxPayload(server.app.db, key, n, (o) => {
        o.places = [
          { weight: 1500, items: [{ description: 'Футболка', quantity: 1, cost: 1000, weight: 1500 }] },
          { weight: 700, items: [{ description: 'Кепка', quantity: 1, cost: 500, weight: 700 }] },
        ];
        o.order.weight = 2200;
      });
      ids.push((await server.call('POST', '/orders', { body: payload })).json.orderId);
    }
    await server.app.outbox.drain();
    const res = await server.call('POST', '/orders/waybills', { body: { orderIds: [...ids, 424242] } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.failedOrders).toEqual([{ orderId: 424242, message: 'Order 424242 not found' }]);
    expect(res.json.waybillItems.map((w: { providerKey: string; orderIds: number[] }) => [w.providerKey, w.orderIds])).toEqual([
      ['sandbox-express', [ids[0], ids[2]].map(Number)],
      ['sandbox-post', [Number(ids[1])]],
    ]);
    const act = await fetch(res.json.waybillItems[0].file);
    expect(act.headers.get('content-type')).toBe('application/pdf');
    const text = pdfText(new Uint8Array(await act.arrayBuffer()));
    expect(text).toContain('Акт приёма-передачи отправлений');
    expect(text).toContain('№ 20260301-sandbox-express от 01.03.2026');
    expect(text).toMatch(/1\s+W-1\s+\S+\s+2\s+2,2/);
    expect(text).toMatch(/2\s+W-3\s+\S+\s+2\s+2,2/);
    expect(text).toMatch(/Итого заказов: 2\s+4\s+4,4/);
    expect(text).toContain('Всего передано 2 заказа, 4 места, общий вес 4,4 кг');
    expect(text).toMatch(/Сдал \(отправитель\)\s+Принял \(служба доставки\)/);
  });
});

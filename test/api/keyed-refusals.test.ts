import { messageText } from '../../shared/messages';
import { orderPayload } from '../helpers/payloads';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * Refusals keyed at their source (#15): an integrator gets the interface's English body exactly as before,
 * without the app's keys; the window's own channel (/app/…) gets the same body with its key, which it says
 * in Russian.
 */
describe('refusals by key: the wire unchanged, the window in its language', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('a body that is not JSON: the interface says "Malformed JSON: …" without a key; the window gets the key', async () => {
    const api = await server.call('POST', '/v1/orders', { raw: '{"order": ', headers: { 'Content-Type': 'application/json' } });
    expect(api.status).toBe(400);
    expect(api.json).toEqual({ code: '040000', message: 'Bad request', description: expect.stringMatching(/^Malformed JSON: \S/) });

    const window = await server.call('POST', '/app/commands/orders.list', { raw: '{"limit": ', headers: { 'Content-Type': 'application/json' }, token: server.owner });
    expect(window.status).toBe(400);
    expect(window.json).toMatchObject({ code: '040000', description: expect.stringMatching(/^Malformed JSON: /), key: 'api.malformedJson' });
    expect(messageText(window.json, 'ru')).toMatch(/^Запрос — не корректный JSON: \S/);
  });

  it('an XML body that is not well-formed: "Malformed XML: …" as before, no key for an integrator', async () => {
    const broken = await server.call('POST', '/v1/orders', { raw: '<request><order>', headers: { 'Content-Type': 'application/xml', Accept: 'application/json' } });
    expect(broken.status).toBe(400);
    expect(broken.json).toEqual({ code: '040000', message: 'Bad request', description: expect.stringMatching(/^Malformed XML: \S/) });
  });

  it('no such operation: 404 with the interface text for an integrator, keyed on the window’s channel', async () => {
    const api = await server.call('GET', '/v1/nothing-here');
    expect(api.status).toBe(404);
    expect(api.json).toEqual({ code: expect.any(String), message: 'Not found', description: 'No such operation: GET /v1/nothing-here' });

    const window = await server.call('POST', '/app/nothing-here', { token: server.owner, body: {} });
    expect(window.status).toBe(404);
    expect(window.json).toMatchObject({ description: 'No such operation: POST /app/nothing-here', key: 'notFound.operation' });
    expect(messageText(window.json, 'ru')).toBe('Операции POST /app/nothing-here нет');
  });

  it('a second cancel: the interface keeps "Order N is already canceled"; a bulk cancel in the window says it per order by key', async () => {
    const created = await server.call('POST', '/v1/orders', { body: orderPayload('KR-1'), token: server.shopToken });
    expect(created.status).toBe(200);
    const orderId = String(created.json.orderId);
    expect((await server.call('GET', `/v1/orders/${orderId}/cancel`, { token: server.shopToken })).status).toBe(200);

    const again = await server.call('GET', `/v1/orders/${orderId}/cancel`, { token: server.shopToken });
    expect(again.status).toBe(400);
    expect(again.json).toEqual({ code: '040081', message: 'Order already canceled', description: `Order ${orderId} is already canceled` });

    const bulk = await server.command('orders.bulk', { action: 'cancel', orderIds: [orderId] });
    expect(bulk.status).toBe(200);
    const [result] = bulk.json.value.results;
    expect(result).toMatchObject({ orderId, ok: false, error: { code: '040081', description: `Order ${orderId} is already canceled`, key: 'order.alreadyCanceled' } });
    expect(messageText(result.error, 'ru')).toBe(`Заказ ${orderId} уже отменён`);
  });

  it('«Отправить повторно» for orders the service refuses again: each a failure with the refusal\'s key, said in Russian', async () => {
    const ids: string[] = [];
    for (const n of ['AGAIN-1', 'AGAIN-2', 'AGAIN-3']) {
      const made = await server.command('orders.create', orderPayload(n, (o) => (o.recipient.city = 'Владивосток'))); // no door delivery there
      expect(made.status).toBe(200);
      ids.push(made.json.value.orderId);
    }
    await server.app.outbox.drain();
    const bulk = await server.command('orders.bulk', { action: 'submit', orderIds: ids });
    expect(bulk.status).toBe(200);
    expect(bulk.json.value).toMatchObject({ ok: 0, failed: 3 });
    for (const result of bulk.json.value.results) {
      expect(result).toMatchObject({ ok: false, error: { key: expect.any(String) } });
      const said = messageText(result.error, 'ru');
      expect(said).toMatch(/Владивосток/);
      expect(said).not.toMatch(/refused|deliver/);
    }
  });
});

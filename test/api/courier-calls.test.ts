import { orderPayload } from '../helpers/payloads';
import { startTestServer, type TestServer } from '../helpers/test-server';

/** A call of the built-in express service for Monday 2 March 2026 (the test clock is Sunday 1 March, 07:00). */
const call = (patch: Record<string, unknown> = {}) => ({
  providerKey: 'sandbox-express',
  date: '2026-03-02',
  timeStart: '10:00',
  timeEnd: '14:00',
  weight: 2400,
  length: 40,
  width: 30,
  height: 20,
  city: 'Москва',
  street: 'ул. Тверская',
  house: '7',
  companyName: 'ООО «Ромашка»',
  contactName: 'Иван Петров',
  phone: '+79161234567',
  comment: 'Въезд со двора',
  ...patch,
});

describe('courier calls over the interface', () => {
  let server: TestServer;
  let registered: string;
  let queued: string;
  beforeAll(async () => {
    server = await startTestServer();
    registered = (await server.call('POST', '/orders', { body: orderPayload('CC-1') })).json.orderId;
    await server.app.outbox.drain();
    queued = (await server.call('POST', '/orders', { body: orderPayload('CC-2') })).json.orderId;
  });
  afterAll(() => server.close());

  it('a call the service accepts answers its number, and is canceled once; a second cancel is 040081', async () => {
    const res = await server.call('POST', '/v1/courierCall', { body: call({ orderIds: [Number(registered)] }) });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ id: expect.any(Number), created: expect.stringMatching(/^2026-03-01T07:00:00/), providerNumber: `SBEC20260302${String(res.json.id).padStart(6, '0')}`, additionalProviderNumber: null, error: null });

    const canceled = await server.call('POST', `/courierCall/${res.json.id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.json).toEqual({ id: res.json.id, canceled: expect.stringMatching(/^2026-03-01T07:00:00/) });

    const again = await server.call('POST', `/v1/courierCall/${res.json.id}/cancel`);
    expect(again.status).toBe(400);
    expect(again.json).toMatchObject({ code: '040081', message: 'Courier call already canceled' });
  });

  it('an unknown id, and another company\'s call, are 404 like an unknown order', async () => {
    for (const id of ['999999', 'abc']) {
      const res = await server.call('POST', `/courierCall/${id}/cancel`);
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ code: '040016', description: `Courier call ${id} was not found` });
    }
    const theirs = await server.call('POST', '/courierCall', { body: call(), token: server.tokenB });
    const res = await server.call('POST', `/courierCall/${theirs.json.id}/cancel`);
    expect(res.status).toBe(404);
  });

  it('a refused call is kept with the service\'s reasons and cannot be canceled', async () => {
    const sunday = await server.call('POST', '/courierCall', { body: call({ date: '2026-03-08', timeStart: '10:00', timeEnd: '11:00', city: 'Мурманск' }) });
    expect(sunday.status).toBe(200);
    expect(sunday.json).toMatchObject({ providerNumber: null, additionalProviderNumber: null });
    expect(sunday.json.error).toContain('date: couriers do not come on Sundays (2026-03-08)');
    expect(sunday.json.error).toContain('timeEnd: the window must be at least 3 hours');
    expect(sunday.json.error).toContain('city: sandbox-express does not collect parcels in Мурманск');
    const cancel = await server.call('POST', `/courierCall/${sunday.json.id}/cancel`);
    expect(cancel.status).toBe(400);
    expect(cancel.json).toMatchObject({ code: '040000' });
    const listed = await server.app.services.courier.list(server.companyA, { limit: 10, offset: 0 });
    expect(listed.rows.find((r) => r.id === sunday.json.id)).toMatchObject({ state: 'refused', providerNumber: null, city: 'Мурманск' });
  });

  it('bad input changes nothing: the schema, a service without calls, orders not registered or not the company\'s', async () => {
    const before = await server.app.db.selectFrom('courier_calls').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const cases: [Record<string, unknown>, string[]][] = [
      [call({ date: 'tomorrow', timeEnd: '09:00', phone: 'call me', weight: 0 }), ['date', 'timeEnd', 'phone', 'weight']],
      [call({ providerKey: 'nowhere' }), ['providerKey']],
      [call({ providerKey: 'sandbox-post' }), ['providerKey']],
      [call({ orderIds: [Number(queued), 424242] }), ['orderIds.0', 'orderIds.1']],
    ];
    for (const [body, fields] of cases) {
      const res = await server.call('POST', '/courierCall', { body });
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('040002');
      expect([...new Set(res.json.errors.map((e: { field: string }) => e.field))].sort()).toEqual([...fields].sort());
    }
    const theirs = await server.call('POST', '/courierCall', { body: call({ orderIds: [registered] }), token: server.tokenB });
    expect(theirs.json).toMatchObject({ code: '040002', errors: [{ field: 'orderIds.0', message: `order ${registered} was not found` }] });
    const after = await server.app.db.selectFrom('courier_calls').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n + 0);
  });

  it('reads an XML body as a PHP client sends it', async () => {
    const xml = '<?xml version="1.0"?><request><providerKey>sandbox-lockers</providerKey><date>2026-03-02</date><timeStart>10:00</timeStart><timeEnd>13:00</timeEnd><weight>900</weight><city>Москва</city><contactName>Анна</contactName><phone>+79990000000</phone><orderIds/></request>';
    const res = await server.call('POST', '/courierCall', { raw: xml, headers: { 'Content-Type': 'application/xml', Accept: 'application/json' } });
    expect(res.json).toMatchObject({ error: null });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ providerNumber: expect.stringMatching(/^SBLC20260302/), error: null });
  });

  it('the reference documents both operations and /lists/providers tells which services take calls', async () => {
    const doc = (await server.call('GET', '/openapi.json', { token: null })).json;
    expect(doc.paths['/courierCall'].post.operationId).toBe('createCourierCall');
    expect(doc.paths['/courierCall/{id}/cancel'].post.operationId).toBe('cancelCourierCall');
    const { rows } = (await server.call('GET', '/v1/lists/providers')).json;
    const takes = rows.filter((p: { capabilities: { operations: string[] } }) => p.capabilities.operations.includes('courierCalls')).map((p: { key: string }) => p.key);
    expect(takes).toEqual(['sandbox-express', 'sandbox-lockers']);
  });
});

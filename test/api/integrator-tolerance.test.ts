import { toXmlDocument } from '../../electron/core/api/xml';
import type { OrderCreateInput } from '../../shared/schemas/order';
import { ordersWorkbook, sampleOrder, uploadBody } from '../fixtures/xlsx/orders-workbook';
import { orderPayload } from '../helpers/payloads';
import { startTestServer, type TestServer } from '../helpers/test-server';

// What integrators' clients really send (PHP, 1C, hand-written XML) and the interface allows: empty
// extraParams as [] or <extraParams/>, null for "not given", numbers in text fields, an order that
// weighs more than its places. Found by an independent black-box client written from the documents.

const xmlHeaders = { 'Content-Type': 'application/xml', Accept: 'application/json' };
const asJson = (payload: unknown) => payload as OrderCreateInput;

describe('the order interface tolerates what integrators send', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ imports: { registrationWaitMs: 0 } });
  });
  afterAll(() => server.close());

  const post = (payload: unknown) => server.call('POST', '/orders', { body: payload });
  const created = async (payload: unknown) => {
    const res = await post(payload);
    expect(res.status, res.text).toBe(200);
    return (await server.call('GET', `/orders/${res.json.orderId}`)).json;
  };

  describe('an empty extraParams means none', () => {
    it.each([
      ['[] (PHP json_encode of an empty array)', []],
      ['null', null],
      ['{}', {}],
    ])('JSON %s', async (_, extraParams) => {
      const order = await created({ ...orderPayload(`EP-${JSON.stringify(extraParams)}`), extraParams });
      expect(order.extraParams).toEqual([]);
    });

    it('XML <extraParams/>', async () => {
      const body = toXmlDocument(orderPayload('EP-XML'), 'request').replace('</request>', '<extraParams/></request>');
      const res = await server.call('POST', '/orders', { raw: body, headers: xmlHeaders });
      expect(res.status, res.text).toBe(200);
      expect((await server.call('GET', `/orders/${res.json.orderId}`)).json.extraParams).toEqual([]);
    });

    it('a non-empty array is still refused', async () => {
      const res = await post({ ...orderPayload('EP-ARR'), extraParams: ['insurance'] });
      expect(res.status).toBe(400);
      expect(res.json.errors[0].field).toBe('extraParams');
    });
  });

  describe('JSON null means "not given"', () => {
    it('for optional fields anywhere in the payload', async () => {
      const payload = orderPayload('NULL-1') as Record<string, any>;
      payload.recipient.email = null;
      payload.places[0].items[0].barcode = null;
      payload.places[0].length = null;
      payload.order.comment = null;
      payload.returnAddress = null;
      payload.cost.deliveryCost = null;
      const order = await created(payload);
      expect(order.recipient).not.toHaveProperty('email', null);
      expect(order.returnAddress ?? null).toBeNull();
    });

    it('a required field given null is "is required", named', async () => {
      const payload = orderPayload('NULL-2') as Record<string, any>;
      payload.recipient.contactName = null;
      payload.order.weight = null;
      const res = await post(payload);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('040002');
      expect(res.json.errors).toEqual(
        expect.arrayContaining([
          { field: 'recipient.contactName', message: 'is required' },
          { field: 'order.weight', message: 'is required' },
        ]),
      );
    });
  });

  it('text fields take JSON numbers as their decimal text', async () => {
    const payload = orderPayload('x') as Record<string, any>;
    payload.order.clientNumber = 10045;
    payload.recipient.phone = 79219876543;
    payload.recipient.house = 28;
    payload.recipient.index = 190000;
    payload.places[0].placeNumber = 1;
    payload.places[0].items[0].articul = 501;
    payload.places[0].items[0].barcode = 4600000000001;
    const order = await created(payload);
    expect(order.order.clientNumber).toBe('10045');
    expect(order.recipient).toMatchObject({ phone: '79219876543', house: '28', index: '190000' });
    expect(order.places[0].placeNumber).toBe('1');
    expect(order.places[0].items[0]).toMatchObject({ articul: '501', barcode: '4600000000001' });

    const clash = await post(orderPayload('10045'));
    expect(clash.json.errors).toEqual([{ field: 'order.clientNumber', message: 'clientNumber 10045 must be unique within the company' }]);
    const huge = await post(asJson({ ...orderPayload('x'), order: { ...orderPayload('x').order, clientNumber: 1e21 } }));
    expect(huge.status).toBe(400);
    expect(huge.json.errors[0].field).toBe('order.clientNumber');
  });

  it('an order may weigh more than its places (packaging), not clearly less', async () => {
    await created(orderPayload('W-1', (o) => (o.order.weight = 2000))); // places weigh 1200 g
    const light = await post(orderPayload('W-2', (o) => (o.order.weight = 1000)));
    expect(light.status).toBe(400);
    expect(light.json.errors).toEqual([
      { field: 'order.weight', message: 'must not be less than the places weigh: they weigh 1200 g in total, the order says 1000 g' },
    ]);
  });

  describe('extraParams are stored as their service valueType', () => {
    it('an order sent in XML reads back like one sent in JSON', async () => {
      const fromJson = await created(orderPayload('XP-J', (o) => (o.extraParams = { insurance: true, courierWaitMinutes: 30 })));
      const body = toXmlDocument(orderPayload('XP-X', (o) => (o.extraParams = { insurance: '1', courierWaitMinutes: '30' })), 'request');
      expect(body).toContain('<insurance>1</insurance>');
      const res = await server.call('POST', '/orders', { raw: body, headers: xmlHeaders });
      expect(res.status, res.text).toBe(200);
      const fromXml = (await server.call('GET', `/orders/${res.json.orderId}`)).json;
      expect(fromXml.extraParams).toEqual([{ key: 'insurance', value: true }, { key: 'courierWaitMinutes', value: 30 }]);
      expect(fromXml.extraParams).toEqual(fromJson.extraParams);
    });

    it('a value that does not fit its type is 040002 on extraParams.<name>, nothing stored', async () => {
      const res = await post(orderPayload('XP-BAD', (o) => (o.extraParams = { insurance: 'yes' })));
      expect(res.status).toBe(400);
      expect(res.json.errors).toEqual([{ field: 'extraParams.insurance', message: 'must be true or false (1 or 0)' }]);
      expect((await server.call('GET', '/orders/status?clientNumber=XP-BAD')).status).toBe(404);
    });
  });

  it('an upload with an unknown top-level providerKey is 040002 on providerKey and imports nothing', async () => {
    const { buffer, columnMap } = await ordersWorkbook([sampleOrder('UPK-1')], { itemsNewRow: true });
    const { 'order.providerKey': _dropped, ...withoutProviderColumn } = columnMap;
    const res = await server.call('POST', '/orders/upload', { body: { ...uploadBody(buffer, withoutProviderColumn, { itemsNewRow: true }), providerKey: 'nope' } });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('040002');
    expect(res.json.errors).toEqual([{ field: 'providerKey', message: 'unknown delivery service nope' }]);
    expect((await server.call('GET', '/orders/status?clientNumber=UPK-1')).status).toBe(404);
  });

  it('a PUT while the create is being transferred follows the transfer instead of being refused', async () => {
    const res = await post(orderPayload('FOLLOW-1'));
    const id = res.json.orderId as string;
    // The create attempt went out and its answer is not in yet (the phase the conformance client hit).
    await server.app.db.updateTable('outbox').set({ attempts: 1 }).where('order_id', '=', Number(id)).execute();
    const put = await server.call('PUT', `/orders/${id}`, { body: orderPayload('FOLLOW-1', (o) => (o.recipient.house = '99')) });
    expect(put.status, put.text).toBe(200);
    await server.app.outbox.drain();
    const order = (await server.call('GET', `/orders/${id}`)).json;
    expect(order.order.statusKey).toBe('uploaded');
    const shipment = await server.app.db
      .selectFrom('sandbox_shipments')
      .select('payload')
      .where('provider_number', '=', order.order.providerNumber)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(shipment.payload).recipient.house).toBe('99');
    expect(await server.app.outbox.state()).toMatchObject({ pending: 0 });
  });

  it.each(['OPTIONS', 'HEAD'])('%s on an existing path is 405 040000 with Allow', async (method) => {
    const res = await server.call(method, '/v1/lists/points');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    if (method === 'OPTIONS') expect(res.json.code).toBe('040000');
    expect((await server.call(method, '/v1/no/such/path')).status).toBe(404);
  });
});

import { XMLParser } from 'fast-xml-parser';
import { toXmlDocument } from '../../electron/core/api/xml';
import type { OrderCreateInput } from '../../shared/schemas/order';
import { sandboxPayload } from '../helpers/sandbox-orders';
import { startTestServer, type TestServer } from '../helpers/test-server';

type Key = 'sandbox-express' | 'sandbox-post' | 'sandbox-lockers';

/** What each sandbox service can do with a registered order, and its tariff weight limit. */
const services: { key: Key; update: boolean; cancel: boolean; weightMax: number }[] = [
  { key: 'sandbox-express', update: true, cancel: true, weightMax: 50_000 },
  { key: 'sandbox-post', update: false, cancel: false, weightMax: 20_000 },
  { key: 'sandbox-lockers', update: false, cancel: true, weightMax: 15_000 },
];

/**
 * The interface's state table, walked end to end over HTTP for each sandbox service:
 * uploadingError + PUT / DELETE, registered + PUT / cancel / DELETE per capability,
 * a second cancel, and the clientNumber used again after cancel or delete.
 */
describe.each(services)('the state table with $key', ({ key, update, cancel, weightMax }) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const payload = (clientNumber: string, patch?: (o: OrderCreateInput) => void) => sandboxPayload(server.app.db, key, clientNumber, patch);
  const tooHeavy = (o: OrderCreateInput) => {
    o.order.weight = o.places[0].weight = weightMax + 1000;
    o.places[0].items.forEach((i) => (i.weight = undefined));
  };
  const get = async (id: string) => (await server.call('GET', `/orders/${id}`)).json;
  const books = (providerNumber: string) =>
    server.app.db.selectFrom('sandbox_shipments').selectAll().where('provider_number', '=', providerNumber).executeTakeFirstOrThrow();
  /** POST /orders, then let the outbox talk to the service. */
  async function placed(body: OrderCreateInput) {
    const res = await server.call('POST', '/orders', { body });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ orderId: expect.stringMatching(/^\d+$/), created: expect.any(String) });
    await server.app.outbox.drain();
    return res.json.orderId as string;
  }

  it('create → uploaded, with a tracking number', async () => {
    const id = await placed(await payload('ST-1'));
    const order = (await get(id)).order;
    expect(order).toMatchObject({ statusKey: 'uploaded', providerNumber: expect.stringMatching(/^SB[EPL]\d{9}$/) });
  });

  it('uploadingError + PUT: the data is changed and sent again automatically', async () => {
    const id = await placed(await payload('ST-2', tooHeavy));
    const failed = await server.call('GET', `/orders/${id}/status`);
    expect(failed.json.status).toMatchObject({ key: 'uploadingError', errorCode: '200', description: expect.stringContaining('is over the limit of tariff') });
    // The fix goes in as XML, as some shops' software sends it.
    const res = await server.call('PUT', `/orders/${id}`, {
      raw: toXmlDocument(await payload('ST-2'), 'request'),
      headers: { 'Content-Type': 'application/xml', Accept: 'application/xml' },
    });
    expect(res.status).toBe(200);
    expect(new XMLParser().parse(res.text).response).toMatchObject({ message: 'ok' });
    expect((await get(id)).order.statusKey).toBe('uploading');
    await server.app.outbox.drain();
    expect((await get(id)).order).toMatchObject({ statusKey: 'uploaded', providerNumber: expect.any(String), weight: expect.any(Number) });
  });

  it('uploadingError + DELETE: removed, and the order can be registered again in the standard way', async () => {
    const id = await placed(await payload('ST-3', tooHeavy));
    expect((await get(id)).order.statusKey).toBe('uploadingError');
    const res = await server.call('DELETE', `/orders/${id}`);
    expect(res.json).toEqual({ orderId: id, deleted: expect.any(String) });
    expect((await server.call('GET', `/orders/${id}`)).status).toBe(404);
    const again = await placed(await payload('ST-3'));
    expect((await get(again)).order.statusKey).toBe('uploaded');
  });

  it(`registered + PUT: ${update ? 'the order is updated at the service' : 'refused, the service does not update'}`, async () => {
    const id = await placed(await payload('ST-4'));
    const number = (await get(id)).order.providerNumber;
    const res = await server.call('PUT', `/v1/orders/${id}`, { body: await payload('ST-4', (o) => (o.recipient.contactName = 'Анна Иванова')) });
    if (update) {
      expect(res.json).toMatchObject({ message: 'ok' });
      await server.app.outbox.drain();
      expect((await get(id)).order).toMatchObject({ statusKey: 'uploaded', providerNumber: number });
      expect(JSON.parse((await books(number)).payload).recipient.contactName).toBe('Анна Иванова');
    } else {
      expect(res.status).toBe(403);
      expect(res.json.code).toBe('040306');
      expect((await get(id)).recipient.contactName).not.toBe('Анна Иванова');
    }
  });

  it(`registered + cancel: ${cancel ? 'canceled, a second cancel is 040081, the clientNumber is free again' : 'refused with 040306'}`, async () => {
    const id = await placed(await payload('ST-5'));
    const number = (await get(id)).order.providerNumber;
    const res = await server.call('GET', `/orders/${id}/cancel`);
    if (!cancel) {
      expect(res.status).toBe(403);
      expect(res.json.code).toBe('040306');
      expect((await get(id)).order.statusKey).toBe('uploaded');
      return;
    }
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ orderId: id, canceled: expect.any(String) });
    expect((await get(id)).order.statusKey).toBe('deliveryCanceled');
    await server.app.outbox.drain();
    expect((await books(number)).canceled_at).not.toBeNull();
    const second = await server.call('GET', `/orders/${id}/cancel`);
    expect([second.status, second.json.code]).toEqual([400, '040081']);
    const again = await placed(await payload('ST-5'));
    const renewed = (await get(again)).order;
    expect(renewed).toMatchObject({ statusKey: 'uploaded', clientNumber: 'ST-5' });
    expect(renewed.providerNumber).not.toBe(number);
  });

  it(`registered + DELETE: ${!update && !cancel ? 'removed; registering again gives a new tracking number' : 'refused, the service keeps registered orders'}`, async () => {
    const id = await placed(await payload('ST-6'));
    const number = (await get(id)).order.providerNumber;
    const res = await server.call('DELETE', `/orders/${id}`);
    if (update || cancel) {
      expect(res.status).toBe(403);
      expect(res.json.code).toBe('040306');
      return;
    }
    expect(res.json).toEqual({ orderId: id, deleted: expect.any(String) });
    await server.app.outbox.drain();
    expect((await books(number)).removed_at).not.toBeNull();
    const again = await placed(await payload('ST-6'));
    const renewed = (await get(again)).order;
    expect(renewed.statusKey).toBe('uploaded');
    expect(renewed.providerNumber).not.toBe(number);
  });

  it('a cancel or DELETE of an order not yet sent needs nothing from the service', async () => {
    const id = (await server.call('POST', '/orders', { body: await payload('ST-7') })).json.orderId;
    expect((await server.call('GET', `/orders/${id}/cancel`)).status).toBe(200);
    const other = (await server.call('POST', '/orders', { body: await payload('ST-8') })).json.orderId;
    expect((await server.call('DELETE', `/orders/${other}`)).status).toBe(200);
    await server.app.outbox.drain();
    const shipments = await server.app.db.selectFrom('sandbox_shipments').select('client_number').where('client_number', 'in', ['ST-7', 'ST-8']).execute();
    expect(shipments).toEqual([]);
  });
});

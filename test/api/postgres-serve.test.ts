import { sql } from 'kysely';
import { createTestDatabase, testPostgresUrl, onPostgres } from '../../electron/core/store/test-engines';
import { orderPayload } from '../helpers/payloads';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * The app on a PostgreSQL server (`--database postgres://…`): an order created over HTTP is read back over HTTP,
 * registered by the outbox, with the data on PostgreSQL. Needs a server: `eval "$(node scripts/test-postgres.mjs)"`.
 */
describe.skipIf(!testPostgresUrl)(onPostgres('the local API on PostgreSQL'), () => {
  let database: { url: string; drop(): Promise<void> };
  let server: TestServer | undefined;
  beforeEach(async () => {
    database = await createTestDatabase(testPostgresUrl!);
  });
  afterEach(async () => {
    await server?.close();
    await database.drop();
  });

  it('creates an order and reads it back, the order kept on the PostgreSQL server', async () => {
    server = await startTestServer({ database: database.url });
    const created = await server.call('POST', '/orders', { body: orderPayload('PG-1') });
    expect(created.status).toBe(200);
    const id = created.json.orderId as string;

    const queued = await server.call('GET', `/orders/${id}`);
    expect(queued.status).toBe(200);
    expect(queued.json.order).toMatchObject({ orderId: id, clientNumber: 'PG-1', statusKey: 'uploading', providerKey: 'sandbox-express' });
    // The same clientNumber again: the interface's validation error, as on SQLite.
    const again = await server.call('POST', '/orders', { body: orderPayload('PG-1') });
    expect(again.status).toBe(400);
    expect(again.json).toMatchObject({ code: '040002', errors: [{ field: 'order.clientNumber' }] });

    await server.app.outbox.drain();
    const registered = await server.call('GET', `/v1/orders/${id}`);
    expect(registered.json.order).toMatchObject({ orderId: id, statusKey: 'uploaded', providerNumber: expect.stringMatching(/^SBE\d{9}$/) });
    expect(await server.call('GET', `/orders/${id}`, { token: server.tokenB })).toMatchObject({ status: 404 });

    // Where it lives: the server's orders table, not a SQLite file.
    const { rows } = await sql<{ client_number: string; status_key: string }>`SELECT client_number, status_key FROM orders`.execute(server.app.db);
    expect(rows).toEqual([{ client_number: 'PG-1', status_key: 'uploaded' }]);
    expect(() => server!.app.sqlite).toThrow('PostgreSQL');
  });
});

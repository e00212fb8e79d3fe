import { orderPayload } from '../helpers/payloads';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * Many POST /orders at once, as a shop's script or several packing stations send them: the server writes the creates
 * that arrive together in one transaction (group commit, store/orders/group-commit.ts), and each is still answered
 * on its own. On SQLite, and on PostgreSQL in the api-postgres project.
 */
describe('POST /orders, many at once', () => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(() => server.close());

  it('answers each on its own: the new ones created once, a clientNumber sent three times refused twice with 040002, a bad order refused alone, nothing half-written', async () => {
    const fresh = Array.from({ length: 24 }, (_, i) => `T-${String(i).padStart(2, '0')}`);
    const sends = [
      ...fresh.slice(0, 8).map((n) => ({ n, body: orderPayload(n) })),
      { n: 'T-DUP', body: orderPayload('T-DUP') },
      ...fresh.slice(8, 16).map((n) => ({ n, body: orderPayload(n) })),
      { n: 'T-DUP', body: orderPayload('T-DUP') },
      { n: 'T-BAD', body: orderPayload('T-BAD', (o) => (o.order.tariffId = 999)) },
      ...fresh.slice(16).map((n) => ({ n, body: orderPayload(n) })),
      { n: 'T-DUP', body: orderPayload('T-DUP') },
    ];
    const [answers, otherCompany] = await Promise.all([
      Promise.all(sends.map(({ body }) => server.call('POST', '/orders', { body }))),
      server.call('POST', '/v1/orders', { body: orderPayload('T-DUP'), token: server.tokenB }),
    ]);
    const byNumber = (n: string) => answers.filter((_, i) => sends[i].n === n);

    for (const n of fresh) {
      const [answer] = byNumber(n);
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ orderId: expect.stringMatching(/^\d+$/), created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/) });
    }
    const dup = byNumber('T-DUP');
    expect(dup.filter((a) => a.status === 200)).toHaveLength(1);
    for (const refused of dup.filter((a) => a.status !== 200)) {
      expect(refused.status).toBe(400);
      expect(refused.json).toMatchObject({ code: '040002', errors: [{ field: 'order.clientNumber', message: expect.stringMatching(/unique within the company/) }] });
    }
    const [bad] = byNumber('T-BAD');
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe('040002');
    expect(bad.json.errors.map((e: { field: string }) => e.field)).toEqual(['order.tariffId']);
    expect(otherCompany.status).toBe(200);

    // Each answered id is its own order, with the clientNumber it was sent with.
    const created = answers.flatMap((a, i) => (a.status === 200 ? [{ n: sends[i].n, id: Number(a.json.orderId) }] : []));
    expect(new Set(created.map((c) => c.id)).size).toBe(fresh.length + 1);
    for (const { n, id } of created) expect((await server.call('GET', `/orders/${id}`)).json.order).toMatchObject({ orderId: String(id), clientNumber: n, statusKey: 'uploading' });

    // Stored once each, nothing of the refused ones, and every order whole: its first status and its create job.
    const { orders } = server.app.stores;
    const rows = await server.app.db.selectFrom('orders').select(['id', 'client_number']).where('company_id', '=', server.companyA.companyId).execute();
    expect(rows.map((r) => r.client_number).sort()).toEqual([...fresh, 'T-DUP'].sort());
    const ids = rows.map((r) => r.id);
    expect((await orders.statusesOf(ids)).map((s) => `${s.orderId}:${s.key}`).sort()).toEqual(ids.map((id) => `${id}:uploading`).sort());
    for (const id of ids) expect((await orders.findOrderWithJobs(server.companyA.companyId, id))?.jobs.map((j) => j.action)).toEqual(['create']);
  });
});

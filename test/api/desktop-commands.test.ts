import { orderPayload } from '../helpers/payloads';
import { startTestServer, type TestServer } from '../helpers/test-server';

describe('desktop commands over the browser-mode transport', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const command = async (name: string, body: unknown = {}) => {
    const res = await server.command(name, body);
    expect(res.status).toBe(200);
    return res.json;
  };

  it('a draft saved as the user types becomes an order on submit', async () => {
    const saved = await command('drafts.save', { data: { order: { clientNumber: 'HTTP-D1' } } });
    expect(saved).toMatchObject({ ok: true, value: { id: expect.any(String), savedAt: expect.any(String) } });
    const id = saved.value.id;
    const early = await command('drafts.submit', { ids: [id] });
    expect(early.value).toMatchObject({ created: 0, failed: 1, results: [{ id, ok: false, error: { code: '040002' } }] });
    await command('drafts.save', { id, data: orderPayload('HTTP-D1') });
    const submitted = await command('drafts.submit', { ids: [id] });
    expect(submitted.value.results[0]).toMatchObject({ ok: true, orderId: expect.any(String) });
    expect((await command('drafts.list')).value.total).toBe(0);
    // an API client's token opens no drafts at all
    expect((await server.command('drafts.list', {}, server.tokenB)).status).toBe(403);
  });

  it('bad input is the interface\'s error body, not a crash', async () => {
    const res = await command('settings.update', { preferences: { refreshIntervalMinutes: 100000 } });
    expect(res).toMatchObject({ ok: false, error: { code: '040002', errors: [{ field: 'preferences.refreshIntervalMinutes' }] } });
  });

  it('with the local API switched off, /v1 answers 403 and the window\'s transport keeps working', async () => {
    expect((await server.call('GET', '/v1/orders/1')).status).not.toBe(403);
    await command('settings.update', { preferences: { localApiEnabled: false } });
    for (const path of ['/v1/orders/1', '/orders/1']) {
      const res = await server.call('GET', path);
      expect(res.status).toBe(403);
      expect(res.json).toMatchObject({ code: '040000', message: 'Forbidden', description: expect.stringMatching(/turned off/) });
    }
    expect((await command('settings.get')).value.preferences.localApiEnabled).toBe(false);
    await command('settings.update', { preferences: { localApiEnabled: true } });
    expect((await server.call('GET', '/v1/orders/1')).status).not.toBe(403);
  });

  it('a regenerated token works at once on the interface and the old one is refused; neither opens the window\'s commands', async () => {
    const { value } = await command('settings.regenerateToken', {});
    expect((await server.call('GET', '/v1/orders/1', { token: server.shopToken })).status).toBe(401);
    expect((await server.call('GET', '/v1/orders/1', { token: value.apiToken })).status).not.toBe(401);
    expect((await server.command('settings.get', {}, value.apiToken)).status).toBe(403);
    expect((await command('settings.get')).value.apiToken).toBe(value.apiToken);
  });

  it('backup, outbox state, stuck orders, last refresh and the export answer through the transport', async () => {
    const backup = await command('backup.now');
    expect(backup.value.name).toMatch(/^shipdesk-/);
    expect((await command('backup.list')).value[0].name).toBe(backup.value.name);
    expect((await command('outbox.state')).value).toMatchObject({ pending: expect.any(Number), waitingForConnection: expect.any(Boolean) });
    expect((await command('orders.stuck')).value).toMatchObject({ thresholdDays: 5, total: 0 });
    expect((await command('statuses.refreshNow')).value).toMatchObject({ checked: expect.any(Number) });
    expect((await command('statuses.lastRefresh')).value).toMatchObject({ trigger: 'manual', at: expect.any(String) });
    const file = await command('orders.exportXlsx', { lang: 'en' });
    expect(Buffer.from(file.value.base64, 'base64').subarray(0, 2).toString()).toBe('PK');
  });
});

import { localId } from '../../electron/core/providers/upstream/mapping';
import type { Connection } from '../../shared/contract/connections';
import type { Result } from '../../shared/result';
import { orderPayload } from '../helpers/payloads';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { tempDataDir } from '../helpers/test-app';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * Another ShipDesk as the upstream, as a shop runs it: `npm run serve` in its own process, real time,
 * its own outbox. This ShipDesk reaches it over HTTP with the token of one of its companies.
 */
const TOKEN = 'branch-office-token-42';

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`command failed: ${JSON.stringify(result.error)}`);
  return result.value as T;
}

describe('upstream aggregator: another ShipDesk in its own process', () => {
  let serve: ServeProcess;
  let data: ReturnType<typeof tempDataDir>;
  let env: TestServer;
  beforeAll(async () => {
    data = tempDataDir();
    serve = await startServeProcess(['--port', '0', '--data-dir', data.dir, '--token', TOKEN]);
    // Real time on the upstream: the adapter really waits (bounded) while the upstream transfers.
    env = await startTestServer({ upstream: { timeoutMs: 10_000, pollDelaysMs: [50, 100, 200, 400, 800, 1600, 3200], confirmDelaysMs: [200] } });
  }, 90_000);
  afterAll(async () => {
    await env?.close();
    if (serve) expect(await serve.stop()).toBe(0);
    data?.remove();
  });

  const remote = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(serve.base + path, { method, headers: { Authorization: TOKEN, 'Content-Type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    return { status: res.status, json: (await res.json()) as any };
  };

  it('creates here, registers there; the upstream\'s refresh and ours agree; cancel goes through', async () => {
    const connection = value<Connection>(await env.app.dispatch('connections.create', env.shop, { providerKey: 'upstream', name: 'Филиал', baseUrl: serve.base, credentials: { token: TOKEN } }));
    const key = `upstream:${connection.id}:sandbox-express`;
    expect((await env.call('GET', `/v1/lists/providers?filter=key=${encodeURIComponent(key)}`)).json.rows).toEqual([
      expect.objectContaining({ key, name: 'Песочница Экспресс (тест) — через «Филиал»' }),
    ]);

    const created = await env.call('POST', '/v1/orders', {
      body: orderPayload('PROC-1', (o) => {
        o.order.providerKey = key;
        o.order.tariffId = localId(connection.id, 103)!;
      }),
    });
    expect(created.status).toBe(200);
    await env.app.outbox.drain();
    const here = (await env.call('GET', `/v1/orders/${created.json.orderId}`)).json.order;
    expect(here).toMatchObject({ statusKey: 'uploaded', providerNumber: expect.stringMatching(/^SBE\d+$/) });
    const there = await remote('GET', `/v1/orders/${here.additionalProviderNumber}`);
    expect(there.json.order).toMatchObject({ clientNumber: 'PROC-1', providerNumber: here.providerNumber, statusKey: 'uploaded' });

    // Our token is an API client's there: it reaches the interface, never the upstream's own commands.
    expect((await remote('POST', '/app/commands/statuses.refresh', {})).status).toBe(403);
    expect(await env.app.services.statusRefresh.refresh()).toMatchObject({ checked: 1, failed: 0 });

    expect((await env.call('GET', `/v1/orders/${created.json.orderId}/cancel`)).status).toBe(200);
    await env.app.outbox.drain();
    expect(await env.app.outbox.state()).toMatchObject({ pending: 0 });
    expect((await remote('GET', `/v1/orders/${here.additionalProviderNumber}/status`)).json.status.key).toBe('deliveryCanceled');
  });
});

import { statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { startBrowserMode } from '../../electron/browser-mode';
import { certificateFile, keyFile } from '../../electron/core/lan/certificate';
import { silentLogger } from '../../electron/core/logger';
import { accepts, freePort, lanCall, lanTestAddress } from '../helpers/lan';
import { orderPayload } from '../helpers/payloads';
import { tempDataDir } from '../helpers/test-app';

type Running = Awaited<ReturnType<typeof startBrowserMode>>;

describe('LAN mode: access from other computers', () => {
  const data = tempDataDir();
  const web = tempDataDir('shipdesk-web-');
  let running: Running;
  let lanPort: number;
  const token = 'lan-client-token-1';

  const start = () => startBrowserMode({ port: 0, dataDir: data.dir, tokens: [token], webRoot: web.dir }, { log: silentLogger });
  const owner = async (name: string, input: unknown = {}): Promise<any> => {
    const result = await running.app.dispatch(name, await running.app.desktopContext(), input);
    if (!result.ok) throw Object.assign(new Error(JSON.stringify(result.error)), { error: result.error });
    return result.value;
  };
  const refusal = async (name: string, input: unknown) => {
    const result = await running.app.dispatch(name, await running.app.desktopContext(), input);
    return result.ok ? undefined : result.error;
  };

  beforeAll(async () => {
    writeFileSync(join(web.dir, 'index.html'), '<!doctype html><title>ShipDesk</title>');
    running = await start();
    lanPort = await freePort();
  });
  afterAll(async () => {
    await running?.close();
    data.remove();
    web.remove();
  });

  it('is off on a new shop: nothing listens beyond 127.0.0.1 and no certificate is made', async () => {
    const state = await owner('lan.get');
    expect(state.settings).toEqual({ enabled: false, addresses: [], names: [], port: 4319, offerInterface: false });
    expect(state).toMatchObject({ served: true, listeners: [], urls: [], certificate: null });
    expect(await accepts('127.0.0.1', running.port)).toBe(true);
    expect(await accepts(lanTestAddress, running.port)).toBe(false);
    expect(await accepts(lanTestAddress, 4319)).toBe(false);
    expect(() => statSync(certificateFile(data.dir))).toThrow();
  });

  it('lists this computer\'s addresses to choose from, without loopback', async () => {
    const state = await owner('lan.get');
    expect(state.hostname).toEqual(expect.any(String));
    for (const entry of state.interfaces) expect(entry.address).not.toMatch(/^127\.|^::1$/);
  });

  it('refuses a setting it cannot follow, field by field, and changes nothing', async () => {
    const noAddress = await refusal('lan.set', { enabled: true, addresses: [], port: lanPort });
    expect(noAddress).toMatchObject({ code: '040002', errors: [{ field: 'addresses', message: 'choose at least one address to listen on' }] });
    const wildcard = await refusal('lan.set', { enabled: true, addresses: ['0.0.0.0'], names: ['shop pc'], port: 80 });
    expect(wildcard?.errors?.map((e) => e.field).sort()).toEqual(['addresses.0', 'names.0', 'port']);
    expect((await owner('lan.get')).settings.enabled).toBe(false);
    expect(await accepts(lanTestAddress, lanPort)).toBe(false);
  });

  it('turned on, serves HTTPS on the chosen address with a certificate made once, kept 0600, whose fingerprint the settings show', async () => {
    const state = await owner('lan.set', { enabled: true, addresses: [lanTestAddress], names: ['Shop-PC'], port: lanPort });
    expect(state.settings).toMatchObject({ enabled: true, addresses: [lanTestAddress], names: ['shop-pc'], port: lanPort });
    expect(state.listeners).toEqual([{ address: lanTestAddress, port: lanPort, url: `https://${lanTestAddress}:${lanPort}/`, problem: null, detail: null }]);
    expect(state.urls).toEqual([`https://shop-pc:${lanPort}/`, `https://${lanTestAddress}:${lanPort}/`]);
    expect(state.certificate.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    for (const file of [certificateFile(data.dir), keyFile(data.dir)]) expect(statSync(file).mode & 0o777).toBe(0o600);

    const page = await lanCall(lanTestAddress, lanPort, '/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>ShipDesk</title>');
    expect(page.fingerprint256).toBe(state.certificate.fingerprint256);
    // The name the owner gave passes the Host check too.
    expect((await lanCall(lanTestAddress, lanPort, '/', { host: `shop-pc:${lanPort}` })).status).toBe(200);
    // The local server stays plain HTTP on 127.0.0.1 only.
    expect(await accepts(lanTestAddress, running.port)).toBe(false);
  });

  it('answers only to the names and addresses the owner configured (a rebinding page gets 403)', async () => {
    for (const host of [`evil.example:${lanPort}`, `127.0.0.1:${lanPort}`, `localhost:${lanPort}`, `shop-pc:${lanPort + 1}`]) {
      const answer = await lanCall(lanTestAddress, lanPort, '/', { host });
      expect([host, answer.status, answer.json?.description]).toEqual([host, 403, 'Unexpected Host header']);
    }
  });

  it('keeps the delivery interface off the network unless the owner offers it', async () => {
    const before = await lanCall(lanTestAddress, lanPort, '/v1/orders', { headers: { Authorization: token }, body: orderPayload('LAN-1') });
    expect(before.status).toBe(403);
    const fingerprint = (await owner('lan.get')).certificate.fingerprint256;

    const state = await owner('lan.set', { enabled: true, addresses: [lanTestAddress], names: ['shop-pc'], port: lanPort, offerInterface: true });
    expect(state.certificate.fingerprint256).toBe(fingerprint); // the second PC's trust survives a change of the setting
    const created = await lanCall(lanTestAddress, lanPort, '/v1/orders', { headers: { Authorization: token }, body: orderPayload('LAN-1') });
    expect(created.status).toBe(200);
    expect((await lanCall(lanTestAddress, lanPort, '/v1/orders', { headers: { Authorization: 'wrong-token-123' }, body: orderPayload('LAN-2') })).status).toBe(401);
  });

  it('a name added later is put in a new certificate, so the second PC sees the new fingerprint in the settings', async () => {
    const before = (await owner('lan.get')).certificate.fingerprint256;
    const state = await owner('lan.set', { enabled: true, addresses: [lanTestAddress], names: ['shop-pc', 'shop-pc.local'], port: lanPort });
    expect(state.certificate.fingerprint256).not.toBe(before);
    expect((await lanCall(lanTestAddress, lanPort, '/', { host: `shop-pc.local:${lanPort}` })).fingerprint256).toBe(state.certificate.fingerprint256);
  });

  it('an address that is busy or not on this computer is reported, the others keep working', async () => {
    const busyPort = await freePort('127.0.0.3');
    const squatter: Server = createServer();
    await new Promise<void>((resolve) => squatter.listen(busyPort, '127.0.0.3', resolve));
    try {
      const busy = await owner('lan.set', { enabled: true, addresses: ['127.0.0.3'], port: busyPort });
      expect(busy.listeners).toEqual([expect.objectContaining({ address: '127.0.0.3', problem: 'in-use' })]);
    } finally {
      squatter.close();
    }
    const missing = await owner('lan.set', { enabled: true, addresses: ['192.0.2.77', lanTestAddress], port: lanPort });
    expect(missing.listeners.map((l: any) => [l.address, l.problem])).toEqual([
      ['192.0.2.77', 'not-available'],
      [lanTestAddress, null],
    ]);
    expect((await lanCall(lanTestAddress, lanPort, '/')).status).toBe(200);
  });

  it('is listening again after a restart, and turned off, nothing listens on the network any more', async () => {
    await running.close();
    running = await start();
    expect((await owner('lan.get')).listeners.map((l: any) => [l.address, l.problem])).toEqual([
      ['192.0.2.77', 'not-available'],
      [lanTestAddress, null],
    ]);
    expect((await lanCall(lanTestAddress, lanPort, '/')).status).toBe(200);

    const off = await owner('lan.set', { enabled: false, addresses: [lanTestAddress], port: lanPort });
    expect(off).toMatchObject({ listeners: [], urls: [] });
    expect(await accepts(lanTestAddress, lanPort)).toBe(false);
    expect(await accepts('127.0.0.1', running.port)).toBe(true);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from '../net/public-lookup';
import { downloadFile, guardedFetch, MAX_DOWNLOAD_REDIRECTS, nodeGet, type FetchLike } from './download';

/** A file server on this computer: /file, /redirect/<n> (n hops to /file), /loop, /error, /stream (chunked, no length). */
let files: Server;
let base: string;
const hits: string[] = [];
beforeAll(async () => {
  files = createServer((req, res) => {
    hits.push(req.url ?? '');
    const url = req.url ?? '';
    if (url === '/file') return void res.end('workbook bytes');
    const hop = /^\/redirect\/(\d+)$/.exec(url);
    if (hop) return void res.writeHead(302, { Location: Number(hop[1]) > 1 ? `/redirect/${Number(hop[1]) - 1}` : '/file' }).end();
    if (url === '/loop') return void res.writeHead(307, { Location: '/loop' }).end();
    if (url === '/error') return void res.writeHead(500, 'Internal db at 10.0.0.5 is down').end('stack trace of the intranet');
    if (url === '/stream') {
      res.writeHead(200); // no Content-Length: the cap must hold while the bytes arrive
      const timer = setInterval(() => res.write(Buffer.alloc(64 * 1024, 1)), 1);
      res.on('close', () => clearInterval(timer));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});
afterAll(async () => {
  files.closeAllConnections();
  await new Promise((resolve) => files.close(resolve));
});

const limits = { timeoutMs: 5_000, maxBytes: 1024 * 1024 };
const download = (url: string, allowLocal: boolean, extra: Partial<Parameters<typeof guardedFetch>[0]> = {}) =>
  downloadFile(url, { ...limits, fetch: guardedFetch({ allowLocal: async () => allowLocal, ...extra }) });

describe('file.url reaches only the public internet by default', () => {
  it('tells public addresses from loopback, private, link-local and their IPv6 forms', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2a00:1450:4010:c0e::65']) expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1',
      '255.255.255.255', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not an address',
    ]) expect(isPublicAddress(address), address).toBe(false);
  });

  it('refuses a local server, this computer by name and by number, and sends it no request', async () => {
    const before = hits.length;
    for (const url of [`${base}/file`, `http://localhost:${new URL(base).port}/file`, 'http://[::1]:1/file', 'http://169.254.169.254/latest/meta-data/']) {
      await expect(download(url, false), url).rejects.toThrow('file.url must point to a public internet address');
    }
    expect(hits.length).toBe(before);
  });

  it('checks every address a name resolves to: one private among public ones is enough to refuse', async () => {
    const resolve = async () => ['93.184.216.34', '10.0.0.7'];
    await expect(download('http://files.example/orders.xlsx', false, { resolve })).rejects.toThrow('public internet address');
  });

  // DNS rebinding: a name that answers a public address to a check and this computer to the connection.
  // The check is the connection's own lookup, so whatever the name answers there is what is checked.
  const toLoopback = async (name: string) => (name === 'rebind.test' ? ['127.0.0.1'] : ['93.184.216.34']);

  it('refuses a name that resolves to this computer at connection time, and sends it no request', async () => {
    const before = hits.length;
    await expect(download(`http://rebind.test:${new URL(base).port}/file`, false, { resolve: toLoopback })).rejects.toThrow('public internet address');
    expect(hits.length).toBe(before);
  });

  it('re-checks each redirect: a public server sending the download to a name of this computer is refused', async () => {
    const before = hits.length;
    const sent: string[] = [];
    const fetch: FetchLike = async (input, init) => {
      sent.push(input);
      if (input.startsWith('https://files.example/')) return new Response(null, { status: 302, headers: { Location: `http://rebind.test:${new URL(base).port}/file` } });
      return nodeGet(input, init);
    };
    await expect(download('https://files.example/orders.xlsx', false, { fetch, resolve: toLoopback })).rejects.toThrow('public internet address');
    expect(sent).toEqual(['https://files.example/orders.xlsx', `http://rebind.test:${new URL(base).port}/file`]);
    expect(hits.length).toBe(before);
  });

  it('the owner can allow local addresses in the settings: this computer by name, and a redirect to it', async () => {
    const before = hits.length;
    const byName = await download(`http://localhost:${new URL(base).port}/redirect/1`, true);
    expect(byName.bytes.toString()).toBe('workbook bytes');
    expect(hits.slice(before)).toEqual(['/redirect/1', '/file']);
  });

  it('the owner can allow local addresses in the settings', async () => {
    const file = await download(`${base}/file`, true);
    expect(file.bytes.toString()).toBe('workbook bytes');
  });
});

describe('redirects, size and messages', () => {
  it(`follows up to ${MAX_DOWNLOAD_REDIRECTS} redirects and refuses more`, async () => {
    expect((await download(`${base}/redirect/${MAX_DOWNLOAD_REDIRECTS}`, true)).bytes.toString()).toBe('workbook bytes');
    await expect(download(`${base}/redirect/${MAX_DOWNLOAD_REDIRECTS + 1}`, true)).rejects.toThrow(`redirects more than ${MAX_DOWNLOAD_REDIRECTS} times`);
    await expect(download(`${base}/loop`, true)).rejects.toThrow(`redirects more than ${MAX_DOWNLOAD_REDIRECTS} times`);
  });

  it('stops a download that passes the size cap while it streams', async () => {
    await expect(download(`${base}/stream`, true)).rejects.toThrow(/larger than 1 MB/);
  });

  it('says what failed without repeating what the other side said or where it is', async () => {
    const failed = download(`${base}/error`, true);
    await expect(failed).rejects.toThrow('file.url could not be downloaded: the server answered HTTP 500');
    await expect(failed).rejects.not.toThrow(/10\.0\.0\.5|intranet/);
    const closed = download('http://127.0.0.1:1/file', true);
    await expect(closed).rejects.toThrow('file.url could not be downloaded: the server could not be reached');
    await expect(closed).rejects.not.toThrow(/ECONNREFUSED|127\.0\.0\.1/);
  });
});

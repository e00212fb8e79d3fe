import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { unzipSync, strFromU8 } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { tempDataDir } from '../../../test/helpers/test-app';
import { createFileLog, logsDir } from './file-log';
import { loggedCall, logServiceCall } from './service-call';
import { supportBundle } from './support-bundle';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((clean) => clean()));

function dataFolder() {
  const data = tempDataDir('shipdesk-logs-');
  cleanups.push(data.remove);
  return data.dir;
}

const lines = (dir: string) =>
  readdirSync(logsDir(dir))
    .filter((name) => name.endsWith('.log'))
    .flatMap((name) => readFileSync(join(logsDir(dir), name), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the log file in the data folder', () => {
  it('echoes warnings and errors to the terminal stream, except those marked fileOnly, which only the file has', async () => {
    const dir = dataFolder();
    const echoed: string[] = [];
    const echo = new Writable({ write: (chunk, _encoding, done) => (echoed.push(String(chunk)), done()) });
    const { log, close } = await createFileLog(dir, { echo });
    log.info('an order was created');
    log.warn('webhook call failed, tried again later', { fileOnly: true, webhook: 'w-1', attempt: 1 });
    log.warn('webhook given up', { webhook: 'w-1', attempt: 10, note: '"fileOnly":true in a value' });
    await close();
    expect(lines(dir).map((line) => line.msg)).toEqual(['an order was created', 'webhook call failed, tried again later', 'webhook given up']);
    expect(echoed.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['webhook given up']);
  });

  it('writes JSON lines that name the company, order, import and delivery service of the work', async () => {
    const dir = dataFolder();
    const { log, close } = await createFileLog(dir);
    log.child({ companyId: 3 }).child({ orderId: 41, service: 'cdek' }).warn('registration failed', { attempt: 2 });
    log.child({ companyId: 3, importId: 'imp-9' }).error('upload failed', new Error('disk gone'));
    await close();
    const [warned, failed] = lines(dir);
    expect(warned).toMatchObject({ level: 'warn', msg: 'registration failed', companyId: 3, orderId: 41, service: 'cdek', attempt: 2 });
    expect(failed).toMatchObject({ level: 'error', msg: 'upload failed', companyId: 3, importId: 'imp-9', err: { message: 'disk gone' } });
    expect(String((failed.err as { stack: string }).stack)).toContain('logging.test.ts');
  });

  it('never writes a password, token, client secret or authorization header', async () => {
    const dir = dataFolder();
    const { log, close } = await createFileLog(dir);
    log.info('sending', {
      headers: { Authorization: 'Bearer eyJhbGciOi.secret-part', 'X-Api-Key': 'k-123', accept: 'application/json' },
      body: { client_id: 'shop', client_secret: 'cs-456', nested: [{ password: 'p-789', access_token: 'at-000' }] },
      note: 'retrying with client_secret=cs-456&grant_type=client_credentials',
    });
    await close();
    const text = readFileSync(join(logsDir(dir), readdirSync(logsDir(dir))[0]), 'utf8');
    for (const secret of ['secret-part', 'k-123', 'cs-456', 'p-789', 'at-000']) expect(text).not.toContain(secret);
    const [line] = lines(dir);
    expect(line).toMatchObject({ headers: { accept: 'application/json' }, body: { client_id: 'shop' } });
  });

  it('rotates by size and keeps only the newest files', async () => {
    const dir = dataFolder();
    const { log, close } = await createFileLog(dir, { maxFileSize: '1k', filesKept: 2 });
    for (let i = 0; i < 200; i++) {
      log.info(`line ${i} ${'x'.repeat(100)}`);
      if (i % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 5)); // let the stream notice the size
    }
    await close();
    const files = readdirSync(logsDir(dir)).filter((name) => name.endsWith('.log'));
    expect(files.length).toBeGreaterThan(1);
    expect(files.length).toBeLessThanOrEqual(3);
    expect(lines(dir).at(-1)?.msg).toMatch(/^line 199 /);
  });

  it('flush resolves once every line logged so far is in the file', async () => {
    const dir = dataFolder();
    const { log, flush, close } = await createFileLog(dir);
    cleanups.push(() => void close());
    for (let i = 0; i < 2000; i++) log.info(`line ${i}`);
    await flush();
    const written = lines(dir).map((line) => line.msg);
    expect(written).toHaveLength(2000);
    expect(written.at(-1)).toBe('line 1999');
  });

  it('a data folder that cannot be written leaves the app logging to stderr instead of failing', async () => {
    const dir = dataFolder();
    writeFileSync(logsDir(dir), 'a file where the folder should be');
    const { log, close } = await createFileLog(dir);
    expect(() => log.error('still alive', new Error('x'))).not.toThrow();
    await close();
  });
});

describe('service calls', () => {
  it('are logged with method, address, status and duration, and no credential in the address', async () => {
    const dir = dataFolder();
    const { log, close } = await createFileLog(dir);
    const cdek = log.child({ service: 'cdek', companyId: 1 });
    logServiceCall(cdek, { method: 'post', url: 'https://api.cdek.ru/v2/oauth/token?grant_type=client_credentials&client_secret=s3cr3t', status: 200, durationMs: 84.4 });
    logServiceCall(cdek, { method: 'GET', url: new URL('https://user:pw@api.cdek.ru/v2/orders?cdek_number=1'), status: 503, durationMs: 1200 });
    logServiceCall(cdek, { method: 'GET', url: 'https://api.cdek.ru/v2/orders', durationMs: 5000, error: new Error('timeout') });
    await close();
    const [token, unavailable, timeout] = lines(dir);
    expect(token).toMatchObject({ level: 'info', service: 'cdek', companyId: 1, call: { method: 'POST', status: 200, durationMs: 84 } });
    expect(JSON.stringify(token)).not.toContain('s3cr3t');
    expect(unavailable).toMatchObject({ level: 'warn', call: { status: 503, url: 'https://api.cdek.ru/v2/orders?cdek_number=1' } });
    expect(timeout).toMatchObject({ level: 'warn', call: { status: null, error: 'timeout' } });
  });

  it('of a service not reached over HTTP are logged the same way, done or failed, and the error still thrown', async () => {
    const dir = dataFolder();
    const { log, close } = await createFileLog(dir);
    const sandbox = log.child({ service: 'sandbox-express' });
    await expect(loggedCall(sandbox, { method: 'register', url: 'sandbox://sandbox-express/register' }, async () => 'SX-1')).resolves.toBe('SX-1');
    await expect(loggedCall(sandbox, { method: 'cancel', url: 'sandbox://sandbox-express/cancel' }, async () => { throw new Error('handed over'); })).rejects.toThrow('handed over');
    await close();
    const [done, failed] = lines(dir);
    expect(done).toMatchObject({ level: 'info', service: 'sandbox-express', msg: expect.stringMatching(/^service call: REGISTER sandbox:\/\/sandbox-express\/register → done in \d+ ms$/), call: { method: 'REGISTER', status: null } });
    expect(failed).toMatchObject({ level: 'warn', call: { method: 'CANCEL', error: 'handed over' } });
  });
});

describe('save logs for support', () => {
  it('zips the log files of the last days and leaves older ones out', async () => {
    const dir = dataFolder();
    const { log, close } = await createFileLog(dir);
    log.info('today');
    await close();
    const now = Date.now();
    const old = join(logsDir(dir), 'shipdesk.2020-01-01.1.log');
    writeFileSync(old, '{"msg":"long ago"}\n');
    utimesSync(old, new Date(now - 30 * 86_400_000), new Date(now - 30 * 86_400_000));
    const bundle = supportBundle(dir, now);
    const zipped = unzipSync(Buffer.from(bundle.base64, 'base64'));
    expect(Object.keys(zipped)).toEqual(bundle.files);
    expect(bundle.files).not.toContain('shipdesk.2020-01-01.1.log');
    expect(strFromU8(zipped[bundle.files[0]])).toContain('"msg":"today"');
    expect(bundle.fileName).toMatch(/^shipdesk-logs-\d{12}\.zip$/);
  });

  it('is a command of the app, whose own log is in the bundle', async () => {
    const dir = dataFolder();
    const app = await createApp({ dataDir: dir });
    const ctx = await app.desktopContext();
    const missing = await app.dispatch('orders.get', ctx, { orderId: '999' });
    expect(missing.ok).toBe(false);
    app.log.child({ companyId: ctx.companyId }).warn('something the shop should report');
    const result = await app.dispatch('logs.saveForSupport', ctx, {});
    await app.close();
    expect(result.ok).toBe(true);
    const { base64, files } = (result as { ok: true; value: { base64: string; files: string[] } }).value;
    const text = Object.values(unzipSync(Buffer.from(base64, 'base64'))).map((bytes) => strFromU8(bytes)).join('');
    expect(files.length).toBeGreaterThan(0);
    expect(text).toContain('something the shop should report');
    // the run's first line: the version of the sources' package.json, the data folder, the database as serve names it
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(JSON.parse(text.split('\n')[0])).toMatchObject({ msg: `ShipDesk ${version} starting`, version, dataDir: dir, database: join(dir, 'shipdesk.db') });
  });

  it('gives an empty bundle before anything was logged', () => {
    const dir = dataFolder();
    expect(existsSync(logsDir(dir))).toBe(false);
    expect(supportBundle(dir, Date.now()).files).toEqual([]);
  });
});


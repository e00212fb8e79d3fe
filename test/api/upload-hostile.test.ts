import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hostileUploadBody, orderSheet, streamedZip, workbookParts } from '../fixtures/xlsx/hostile-workbooks';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { tempDataDir } from '../helpers/test-app';

/**
 * Uploads made to take the process down, against `npm run serve` in its own process: its peak memory
 * (VmHWM, what the kernel saw at most) is read from /proc, so the worker thread's memory counts too.
 * Each of these once killed the process or grew it past gigabytes.
 */
const TOKEN = 'hostile-files-token';
/** Starts the peak over (the kernel's VmHWM, reset through clear_refs), so a test measures its own upload. */
const resetPeak = (serve: ServeProcess) => writeFileSync(`/proc/${serve.child.pid}/clear_refs`, '5');
const peakMb = (serve: ServeProcess) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${serve.child.pid}/status`, 'utf8'))![1]) / 1024;

describe('hostile files cannot take the server down', () => {
  // a process of its own for each: the peak is the upload's (counted after the file is built and sent)
  let serve: ServeProcess;
  let data: ReturnType<typeof tempDataDir>;
  beforeEach(async () => {
    data = tempDataDir();
    serve = await startServeProcess(['--port', '0', '--data-dir', data.dir, '--token', TOKEN]);
  }, 90_000);
  afterEach(async () => {
    await serve?.stop('SIGKILL'); // its outbox may still be sending the imported orders: no need to wait
    data?.remove();
  }, 60_000);

  const call = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(serve.base + url, { method, headers: { Authorization: TOKEN, 'Content-Type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    return { status: res.status, json: (await res.json()) as any };
  };
  const settled = async (uploadId: number) => {
    for (;;) {
      const state = (await call('GET', `/v1/orders/upload/${uploadId}?limit=1`)).json;
      if (!['queued', 'reading', 'creating', 'registering'].includes(state.status)) return state;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const count = (sql: string) => {
    const db = new Database(path.join(data.dir, 'shipdesk.db'), { readonly: true });
    try {
      return (db.prepare(sql).get() as { n: number }).n;
    } finally {
      db.close();
    }
  };
  const databaseBytes = () => readdirSync(data.dir).filter((f) => f.startsWith('shipdesk.db')).reduce((n, f) => n + statSync(path.join(data.dir, f)).size, 0);

  it('20,000 orders with a stray cell in column XFD on every row: imported whole, the process well under 400 MB', async () => {
    const file = await streamedZip(workbookParts(orderSheet({ rows: 20_000, strayColumn: 'XFD' })));
    resetPeak(serve);
    const started = await call('POST', '/v1/orders/upload', hostileUploadBody(file, { mode: 'async' }));
    expect(started.status).toBe(200);
    const state = await settled(started.json.uploadId);
    expect(state).toMatchObject({ status: 'done', total: 20_000, created: 20_000, failed: 0 });
    expect(peakMb(serve)).toBeLessThan(400); // each row padded to 16,384 cells: 1.86 GB before
  }, 180_000);

  it('a sheet that claims 1,000 bytes and inflates to 300 MB of text without a tag end is refused at once', async () => {
    const megabyte = 'a'.repeat(1 << 20);
    const sheet = {
      name: 'xl/worksheets/sheet1.xml',
      claimedSize: 1000,
      *pieces() {
        yield '<?xml version="1.0"?><worksheet><sheetData><row r="2"><c r="A2" t="inlineStr"><is><t>';
        for (let i = 0; i < 300; i++) yield megabyte;
      },
    };
    const body = hostileUploadBody(await streamedZip(workbookParts(sheet)), { mode: 'sync' });
    resetPeak(serve);
    const res = await call('POST', '/v1/orders/upload', body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: '040000', message: 'Bad file', description: expect.stringMatching(/more than the 1,000 bytes its file says it holds/) });
    expect(peakMb(serve)).toBeLessThan(400);
  }, 120_000);

  it('50,000 good and 50,000 bad orders with errorsToFile: refused before any order is created, the errors file never built', async () => {
    const file = await streamedZip(workbookParts(orderSheet({ rows: 100_000, bad: (i) => i % 2 === 1 })));
    const imports = count('SELECT COUNT(*) AS n FROM imports');
    const orders = count('SELECT COUNT(*) AS n FROM orders');
    resetPeak(serve);
    for (const mode of ['async', 'sync'] as const) {
      const res = await call('POST', '/v1/orders/upload', hostileUploadBody(file, { mode, errorsToFile: true }));
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: '040000', message: 'Bad file', errors: [{ field: 'file' }], description: expect.stringMatching(/an errors file \(errorsToFile\) is made for sheets of at most 48 MB/) });
    }
    expect(count('SELECT COUNT(*) AS n FROM orders')).toBe(orders);
    expect(count('SELECT COUNT(*) AS n FROM imports')).toBe(imports);
    expect(peakMb(serve)).toBeLessThan(400);
  }, 240_000);


  it('five 20 MB uploads that are not workbooks are refused and leave the database as it was', async () => {
    const before = databaseBytes();
    for (let i = 0; i < 5; i++) {
      const res = await call('POST', '/v1/orders/upload', hostileUploadBody(randomBytes(20 * 1024 * 1024), { mode: 'async' }));
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: '040000', message: 'Bad file', description: expect.stringMatching(/not an xlsx workbook/) });
    }
    expect(databaseBytes() - before).toBeLessThan(1024 * 1024); // 143 MB before: each source was stored, then checked
    expect(readdirSync(data.dir)).not.toContain('imports');
  }, 120_000);
});

import { randomBytes } from 'node:crypto';
import { vi } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { Worker } from 'node:worker_threads';
import path from 'node:path';
import { HELD_FILE_CHARS } from '../../electron/core/api/body-limits';
import { heldCount } from '../../electron/core/held-bytes';
import { readZipDirectory, rewriteZip } from '../../electron/core/import/zip';
import { ordersWorkbook, sampleOrder, uploadBody } from '../fixtures/xlsx/orders-workbook';
import { startTestServer, type TestServer } from '../helpers/test-server';

// A workbook whose base64 is long enough to be decoded in the body-parsing thread (HELD_FILE_CHARS): the main
// thread gets its bytes, never its text, and the upload goes as any other.

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

/** The two-order workbook with 1.2 MB of random bytes in a part of its own: its base64 passes HELD_FILE_CHARS. */
async function largeWorkbook() {
  const { buffer, columnMap } = await ordersWorkbook([sampleOrder('BIG-1'), sampleOrder('BIG-2')], { itemsNewRow: true });
  const padded = rewriteZip(buffer, readZipDirectory(buffer), new Map(), new Map([['docProps/padding.bin', randomBytes(1_200_000)]]));
  expect(padded.toString('base64').length).toBeGreaterThan(HELD_FILE_CHARS);
  return { buffer: padded, columnMap };
}

describe('a large workbook in POST /orders/upload', () => {
  it('creates its orders, its bytes decoded off the main thread, and nothing stays held after the answer', async () => {
    server = await startTestServer();
    const { buffer, columnMap } = await largeWorkbook();
    const res = await server.call('POST', '/orders/upload', { body: uploadBody(buffer, columnMap, { itemsNewRow: true }) });
    expect(res.status, res.text).toBe(200);
    expect(res.json.resultItems.map((i: { orderId?: unknown }) => typeof i.orderId)).toEqual(['number', 'number']);
    expect(heldCount()).toBe(0);
  });

  it('is read by the import worker from the file it was kept in: no copy of its bytes goes to the worker', async () => {
    server = await startTestServer();
    const { buffer, columnMap } = await largeWorkbook();
    const post = vi.spyOn(Worker.prototype, 'postMessage');
    try {
      const res = await server.call('POST', '/orders/upload', { body: uploadBody(buffer, columnMap, { itemsNewRow: true }) });
      expect(res.status, res.text).toBe(200);
      const reads = post.mock.calls.map(([message]) => message as { kind?: string; bytes?: unknown; file?: string }).filter((m) => m?.kind === 'read');
      expect(reads).toEqual([expect.objectContaining({ file: expect.stringMatching(/\d+\.xlsx$/) })]);
      expect(reads[0].bytes).toBeUndefined();
    } finally {
      post.mockRestore();
    }
  });

  it('refuses one that is not a workbook with the same 400 as a small one, and holds nothing after', async () => {
    server = await startTestServer();
    const { columnMap } = await largeWorkbook();
    const res = await server.call('POST', '/orders/upload', { body: uploadBody(randomBytes(1_200_000), columnMap, { itemsNewRow: true }) });
    expect(res.status, res.text).toBe(400);
    expect(res.json).toMatchObject({ code: '040000', message: 'Bad file' });
    expect(heldCount()).toBe(0);
  });
});

/** Every file under `dir` (none when it does not exist). */
const filesUnder = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)) : []);

/** Sends the head and 1 MB of an 8 MB upload, then drops the connection. */
async function cutShort(port: number, token: string) {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const head = `POST /v1/orders/upload HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: ${token}\r\nContent-Type: application/json\r\nContent-Length: 8000000\r\n\r\n`;
  await new Promise((resolve) => socket.write(head + `{"providerKey":"sandbox-express","file":{"base64":"${'QUJD'.repeat(250_000)}`, resolve));
  await new Promise((resolve) => setTimeout(resolve, 300)); // the server reads the head and what came of the body
  socket.destroy();
}

describe('large uploads refused or cut short', () => {
  it('leave nothing in the data folder, and their body-parsing threads take the next upload', async () => {
    server = await startTestServer();
    const { buffer, columnMap } = await largeWorkbook();
    const refused = await Promise.all([1, 2, 3].map(() => server.call('POST', '/orders/upload', { body: uploadBody(randomBytes(1_200_000), columnMap, { itemsNewRow: true }) })));
    expect(refused.map((r) => r.status)).toEqual([400, 400, 400]);
    await Promise.all([1, 2, 3].map(() => cutShort(server.port, server.tokenA))); // more than the threads there are
    expect(filesUnder(path.join(server.dataDir, 'imports'))).toEqual([]);
    expect(heldCount()).toBe(0);

    // were a thread still waiting for a dropped body, this upload would wait for ever
    const res = await server.call('POST', '/orders/upload', { body: uploadBody(buffer, columnMap, { itemsNewRow: true }) });
    expect(res.status, res.text).toBe(200);
    expect(filesUnder(path.join(server.dataDir, 'imports')).map((f) => path.basename(f))).toEqual([expect.stringMatching(/^\d+\.xlsx$/)]); // the one import's file
  }, 60_000);
});

describe('the wizard\'s preview of a large workbook over HTTP (browser mode)', () => {
  it('stages it from bytes decoded in the body-parsing thread: the main thread never decodes its base64', async () => {
    server = await startTestServer();
    const { buffer } = await largeWorkbook();
    const write = vi.spyOn(Buffer.prototype, 'write');
    try {
      const body = { file: { name: 'big.xlsx', base64: buffer.toString('base64') }, rows: 5 };
      const res = await server.call('POST', '/app/commands/import.preview', { body, headers: { Authorization: server.owner } });
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      expect(res.json).toMatchObject({ ok: true, value: { importId: expect.any(Number), rows: expect.any(Array) } });
      expect(write.mock.calls.filter((args) => args.includes('base64'))).toEqual([]); // decodeBase64's slices
    } finally {
      write.mockRestore();
    }
    expect(heldCount()).toBe(0);
  });
});

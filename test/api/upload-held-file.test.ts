import { randomBytes } from 'node:crypto';
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

  it('refuses one that is not a workbook with the same 400 as a small one, and holds nothing after', async () => {
    server = await startTestServer();
    const { columnMap } = await largeWorkbook();
    const res = await server.call('POST', '/orders/upload', { body: uploadBody(randomBytes(1_200_000), columnMap, { itemsNewRow: true }) });
    expect(res.status, res.text).toBe(400);
    expect(res.json).toMatchObject({ code: '040000', message: 'Bad file' });
    expect(heldCount()).toBe(0);
  });
});

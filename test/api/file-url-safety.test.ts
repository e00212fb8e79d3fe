import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorCode } from '../../shared/errors';
import { ordersWorkbook, sampleOrder, uploadBody } from '../fixtures/xlsx/orders-workbook';
import { startTestServer, type TestServer } from '../helpers/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ imports: { registrationWaitMs: 0 } });
});
afterAll(async () => {
  await server?.close();
});

it('an upload whose file.url points at this very server is refused by default, plainly, and creates nothing', async () => {
  const { buffer, columnMap } = await ordersWorkbook([sampleOrder('SSRF-1')], { itemsNewRow: true });
  const body = { ...uploadBody(buffer, columnMap, { itemsNewRow: true }), file: { url: `${server.base}/v1/openapi.json` } };
  const res = await server.call('POST', '/v1/orders/upload', { body });
  expect(res.status).toBe(400);
  expect(res.json).toMatchObject({ code: ErrorCode.general, errors: [{ field: 'file.url' }] });
  expect(res.json.description).toMatch(/public internet address/);
  expect(res.text).not.toContain('openapi');
  const orders = await server.call('GET', '/v1/orders');
  expect(JSON.stringify(orders.json)).not.toContain('SSRF-1');
});

import { ordersWorkbook, sampleOrder, uploadBody } from '../fixtures/xlsx/orders-workbook';
import { startTestServer, type TestServer } from '../helpers/test-server';

// The rows are mapped to orders in the reading worker; the rules of POST /orders that need the delivery
// services and reference data are checked on the main thread, and their errors still name the cell.

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

describe('an order the rules of POST /orders refuse, in an upload', () => {
  it('is reported with the cell its value came from, and the other orders are created', async () => {
    server = await startTestServer();
    const orders = [
      sampleOrder('GOOD-1'),
      sampleOrder('COD-SHORT', (o) => (o.fields['cost.codCost'] = 100)), // the goods (2500) and delivery (490.50) are not covered
      sampleOrder('LIGHT-PLACE', (o) => (o.fields['place.weight'] = 500)), // its items weigh 800 g
      sampleOrder('GOOD-2'),
    ];
    const { buffer, columnMap, layout } = await ordersWorkbook(orders, { itemsNewRow: true });
    const res = await server.call('POST', '/orders/upload', { body: uploadBody(buffer, columnMap, { itemsNewRow: true }) });
    expect(res.status, res.text).toBe(200);
    const items = res.json.resultItems as any[];
    expect(items.map((i) => [i.clientNumber, i.orderId !== undefined])).toEqual([
      ['GOOD-1', true],
      ['COD-SHORT', false],
      ['LIGHT-PLACE', false],
      ['GOOD-2', true],
    ]);
    const at = (key: string, clientNumber: string) => `${layout.columnOf[key]}${layout.rowsOf.get(clientNumber)![0]}`;
    expect(items[1]).toMatchObject({ code: '040002', row: layout.rowsOf.get('COD-SHORT')![0] });
    expect(items[1].errors).toEqual([{ field: 'cost.codCost', message: expect.stringMatching(new RegExp(`^must cover the goods .*\\(cell ${at('cost.codCost', 'COD-SHORT')}: "100"\\)$`)) }]);
    expect(items[2].errors).toEqual([{ field: 'place.weight', message: expect.stringMatching(new RegExp(`800.*\\(cell ${at('place.weight', 'LIGHT-PLACE')}: "500"\\)$`)) }]);
  });
});

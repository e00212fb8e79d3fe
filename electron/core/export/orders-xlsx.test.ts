import ExcelJS from 'exceljs';
import { orderCreateSchema } from '../../../shared/schemas/order';
import { orderPayload } from '../../../test/helpers/payloads';
import { createTestApp } from '../../../test/helpers/test-app';

describe('orders export and bulk actions', () => {
  let env: Awaited<ReturnType<typeof createTestApp>>;
  beforeEach(async () => {
    env = await createTestApp();
  });
  afterEach(() => env.close());

  const call = (name: string, input: unknown) => env.app.dispatch(name, env.shop, input);
  const value = async (name: string, input: unknown): Promise<any> => {
    const result = await call(name, input);
    if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.error)}`);
    return result.value;
  };
  const create = async (clientNumber: string, patch?: Parameters<typeof orderPayload>[1]) =>
    (await env.app.services.orders.create(env.shop, orderCreateSchema.parse(orderPayload(clientNumber, patch)))).orderId;
  const sheetOf = async (base64: string) => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(base64, 'base64') as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return { name: sheet.name, rows };
  };

  it('exports the chosen orders with the list columns and Russian headers, the delivery prices and a real date', async () => {
    const a = await create('EX-1', (o) => (o.cost.quotedDeliveryCost = 389.7));
    await create('EX-2');
    const file = await value('orders.exportXlsx', { orderIds: [a] });
    expect(file).toMatchObject({ rows: 1, fileName: expect.stringMatching(/^заказы-\d{8}-\d{4}\.xlsx$/) });
    const { name, rows } = await sheetOf(file.base64);
    expect(name).toBe('Заказы');
    expect(rows[0]).toEqual([
      'Номер заказа', 'ID в ShipDesk', 'Служба доставки', 'Номер в службе', 'Статус', 'Пояснение к статусу', 'Получатель', 'Телефон', 'Город',
      'Наложенный платёж, ₽', 'Доставка по тарифу, ₽', 'Доставка с получателя, ₽', 'Создан',
    ]);
    expect(rows[1]).toEqual(expect.arrayContaining([Number(a), 'EX-1', 'Передаётся в службу доставки', 'Анна Смирнова', 'Санкт-Петербург', 2990.5, 389.7, 490.5]));
    // "Создан" is a real date in the shop's local time, formatted as one, not text.
    const created = rows[1][12] as Date;
    expect(created).toBeInstanceOf(Date);
    const local = new Date(env.clock.now());
    expect([created.getUTCFullYear(), created.getUTCMonth(), created.getUTCDate(), created.getUTCHours(), created.getUTCMinutes()])
      .toEqual([local.getFullYear(), local.getMonth(), local.getDate(), local.getHours(), local.getMinutes()]);
  });

  it('exports what the list filter shows, with English headers', async () => {
    await create('FIND-1');
    await create('OTHER-1');
    const file = await value('orders.exportXlsx', { filter: { search: 'FIND' }, lang: 'en' });
    const { rows } = await sheetOf(file.base64);
    expect(rows[0][0]).toBe('Order number');
    expect(rows.slice(1).map((r) => r[0])).toEqual(['FIND-1']);
  });

  it('exports by the list\'s newer filters too (cash on delivery, created dates, statuses), and refuses reversed dates', async () => {
    await create('COD-1');
    await create('NOCOD-1', (p) => {
      p.cost.codCost = 0;
    });
    const withCod = await sheetOf((await value('orders.exportXlsx', { filter: { cod: true, statusKeys: ['uploading', 'uploaded'] } })).base64);
    expect(withCod.rows.slice(1).map((r) => r[0])).toEqual(['COD-1']);
    const noCod = await sheetOf((await value('orders.exportXlsx', { filter: { cod: false, dateFrom: '2000-01-01' } })).base64);
    expect(noCod.rows.slice(1).map((r) => r[0])).toEqual(['NOCOD-1']);
    const future = await value('orders.exportXlsx', { filter: { dateFrom: '2999-01-01' } });
    expect(future.rows).toBe(0);
    const reversed = await call('orders.exportXlsx', { filter: { dateFrom: '2026-03-02', dateTo: '2026-03-01' } });
    expect(reversed).toMatchObject({ ok: false, error: { errors: [expect.objectContaining({ field: 'filter.dateTo' })] } });
  });

  it('cancels many orders with one result per order; an unknown one is named, the rest go through', async () => {
    const a = await create('BU-1');
    const b = await create('BU-2');
    const result = await value('orders.bulk', { action: 'cancel', orderIds: [a, b, '999999'] });
    expect(result).toMatchObject({ action: 'cancel', ok: 2, failed: 1 });
    expect(result.results[2]).toEqual({ orderId: '999999', ok: false, error: expect.objectContaining({ code: '040080' }) });
    const again = await value('orders.bulk', { action: 'cancel', orderIds: [a] });
    expect(again.results[0]).toMatchObject({ ok: false, error: { code: '040081' } });
  });

  it('submit sends a refused order again and reports what the service said; a registered one is left alone', async () => {
    const refused = await create('BU-3', (o) => (o.recipient.city = 'Омск'));
    const fine = await create('BU-4');
    await env.app.outbox.drain();
    const result = await value('orders.bulk', { action: 'submit', orderIds: [refused, fine] });
    // The same data is refused again: not "done" because it was queued, but failed with the service's words.
    expect(result).toMatchObject({ ok: 0, failed: 2 });
    expect(result.results[0]).toMatchObject({ orderId: refused, ok: false, error: { message: 'The delivery service refused the order again', description: expect.stringMatching(/Омск/) } });
    expect(result.results[1]).toMatchObject({ ok: false, error: { description: expect.stringMatching(/already registered/) } });
    expect((await value('orders.get', { orderId: refused })).order.statusKey).toBe('uploadingError');
    const history = await env.app.db.selectFrom('order_statuses').select('key').where('order_id', '=', Number(refused)).orderBy('id').execute();
    expect(history.map((h) => h.key)).toEqual(['uploading', 'uploadingError', 'uploading', 'uploadingError']);
  });

  it('refresh and delete go through the order service; more than 1000 orders are refused', async () => {
    const a = await create('BU-5');
    await env.app.outbox.drain();
    expect(await value('orders.bulk', { action: 'refresh', orderIds: [a, '12345'] })).toMatchObject({ ok: 1, failed: 1 });
    const unsent = await create('BU-6'); // not sent yet: it may be deleted
    expect(await value('orders.bulk', { action: 'delete', orderIds: [unsent] })).toMatchObject({ ok: 1 });
    expect(await call('orders.get', { orderId: unsent })).toMatchObject({ ok: false, error: { code: '040080' } });
    const many = Array.from({ length: 1001 }, (_, i) => String(i + 1));
    expect(await call('orders.bulk', { action: 'cancel', orderIds: many })).toMatchObject({ ok: false, error: { code: '040002' } });
  });
});

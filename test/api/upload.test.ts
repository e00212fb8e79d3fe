import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { XMLParser } from 'fast-xml-parser';
import { ordersWorkbook, sampleOrder, senderDefaults, uploadBody, type SampleOrder } from '../fixtures/xlsx/orders-workbook';
import { startTestServer, type TestServer } from '../helpers/test-server';

// POST /orders/upload end to end: real xlsx files made with exceljs, the real core on real SQLite, real HTTP.

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.close();
});

const upload = (body: unknown, headers?: Record<string, string>) => server.call('POST', '/orders/upload', { body, headers });

async function storedPayload(orderId: number) {
  const row = await server.app.db.selectFrom('orders').select('payload').where('id', '=', orderId).executeTakeFirstOrThrow();
  return JSON.parse(row.payload);
}

const orderCount = async () => Number((await server.app.db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

const twoOrders = () => [sampleOrder('SHOP-1'), sampleOrder('SHOP-2')];

/** Uploads the orders and returns the answer's result items (HTTP 200 expected). */
async function importOrders(orders: SampleOrder[], options: Parameters<typeof ordersWorkbook>[1] & { body?: Partial<Parameters<typeof uploadBody>[2]>; columnMap?: Record<string, string> }) {
  const { buffer, columnMap, layout } = await ordersWorkbook(orders, options);
  const res = await upload(uploadBody(buffer, { ...columnMap, ...options.columnMap }, { itemsNewRow: options.itemsNewRow, nameFormat: options.nameFormat, ...options.body }));
  expect(res.status, res.text).toBe(200);
  return { items: res.json.resultItems as any[], layout, res };
}

describe('POST /orders/upload, sync mode: how the table is read', () => {
  it('itemsNewRow true: every item row repeats its order; one order per clientNumber', async () => {
    const { items, layout, res } = await importOrders(twoOrders(), { itemsNewRow: true });
    expect(res.json.base64).toBeNull();
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({ clientNumber: 'SHOP-1', row: layout.rowsOf.get('SHOP-1')![0], orderId: expect.any(Number), created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/) });
    expect(items[1]).toMatchObject({ clientNumber: 'SHOP-2', row: 5 });
    // sync mode waits for the delivery service: the sandbox gives its number at once
    expect(items[0].providerNumber).toMatch(/^SBE\d+$/);
    const payload = await storedPayload(items[0].orderId);
    expect(payload.places[0].items.map((i: { description: string }) => i.description)).toEqual(['Футболка', 'Кепка']);
    expect(payload.places[0]).toMatchObject({ weight: 1200, length: 30, width: 20, height: 10 });
    expect(payload.recipient).toMatchObject({ contactName: 'Смирнова Анна Петровна', city: 'Санкт-Петербург', office: '5' });
    expect(payload.sender).toMatchObject({ contactName: 'Иван Петров', city: 'Москва', companyName: 'ООО Ромашка' });
    expect(payload.order).toMatchObject({ deliveryTimeStart: '10:00', deliveryTimeEnd: '18:00', tariffId: 103, providerKey: 'sandbox-express' });
    expect(payload.cost).toEqual({ assessedCost: 2500, codCost: 2990.5, deliveryCost: 490.5 });
  });

  it('itemsNewRow false: item rows sit under the order row, carrying only item columns', async () => {
    const orders = [sampleOrder('SHOP-1'), sampleOrder('SHOP-2', (o) => o.items.push({ 'item.description': 'Носки', 'item.quantity': 3, 'item.weight': 50 }))];
    const { items, layout } = await importOrders(orders, { itemsNewRow: false });
    expect(layout.rowsOf.get('SHOP-2')).toEqual([6, 7, 8, 9]);
    expect(items.map((i) => [i.clientNumber, i.row])).toEqual([['SHOP-1', 3], ['SHOP-2', 6]]);
    const second = await storedPayload(items[1].orderId);
    expect(second.places[0].items).toEqual([
      expect.objectContaining({ description: 'Футболка', quantity: 2 }),
      expect.objectContaining({ description: 'Кепка', quantity: 1 }),
      expect.objectContaining({ description: 'Носки', quantity: 3, weight: 50 }),
    ]);
    expect(second.order.clientNumber).toBe('SHOP-2');
  });

  it('itemsNewRow false: item rows with no order row above them are reported, the orders below still come in', async () => {
    const { buffer, columnMap } = await ordersWorkbook([sampleOrder('SHOP-1')], {
      itemsNewRow: false,
      customize: (ws, _wb, layout) => {
        // the order row's clientNumber wiped: its item rows now hang under nothing
        ws.getCell(`${layout.columnOf['order.clientNumber']}3`).value = null;
        ws.getCell(`${layout.columnOf['order.clientNumber']}6`).value = 'SHOP-9';
        for (const [key, value] of Object.entries(sampleOrder('SHOP-9').fields)) {
          if (layout.columnOf[key] && key !== 'recipient.contactName') ws.getCell(`${layout.columnOf[key]}6`).value = value as any;
        }
        ws.getCell(`${layout.columnOf['recipient.contactName']}6`).value = 'Смирнова Анна';
        ws.getCell(`${layout.columnOf['item.description']}7`).value = 'Шарф';
        ws.getCell(`${layout.columnOf['item.quantity']}7`).value = 1;
        ws.getCell(`${layout.columnOf['item.weight']}7`).value = 100;
      },
    });
    const res = await upload(uploadBody(buffer, columnMap, { itemsNewRow: false }));
    const [orphans, order] = res.json.resultItems;
    expect(orphans).toMatchObject({ row: 3, code: '040002', errors: [{ field: 'order.clientNumber', message: expect.stringMatching(/order row/) }] });
    expect(order).toMatchObject({ clientNumber: 'SHOP-9', row: 6, orderId: expect.any(Number) });
  });

  it('nameFormat true: the name parts in separate columns are joined, empty parts skipped', async () => {
    const orders = [sampleOrder('SHOP-1'), sampleOrder('SHOP-2', (o) => (o.fields['recipient.contactName'] = 'Иванов Пётр'))];
    const { items, res } = await importOrders(orders, { itemsNewRow: true, nameFormat: true });
    expect(res.json.resultItems.every((i: any) => i.orderId)).toBe(true);
    expect((await storedPayload(items[0].orderId)).recipient.contactName).toBe('Смирнова Анна Петровна');
    expect((await storedPayload(items[1].orderId)).recipient.contactName).toBe('Иванов Пётр');
  });

  it('nameFormat false refuses a name mapped to several columns, naming the setting', async () => {
    const { buffer, columnMap } = await ordersWorkbook(twoOrders(), { itemsNewRow: true, nameFormat: true });
    const res = await upload(uploadBody(buffer, columnMap, { itemsNewRow: true, nameFormat: false }));
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: '040002', errors: [{ field: 'columnMap.recipient.contactName', message: expect.stringMatching(/nameFormat/) }] });
    expect(await orderCount()).toBe(0);
  });

  it('times and dates: written in the columnSettings formats, or stored by Excel as native times and dates', async () => {
    const orders = [
      sampleOrder('TEXT', (o) => {
        o.fields['order.deliveryTimeStart'] = '9:30:00';
        o.fields['order.deliveryTimeEnd'] = '18:00:00';
        o.fields['order.deliveryDate'] = '05.03.2026';
      }),
      sampleOrder('NATIVE', (o) => {
        o.fields['order.deliveryTimeStart'] = new Date(Date.UTC(1899, 11, 30, 11, 15));
        o.fields['order.deliveryTimeEnd'] = new Date(Date.UTC(1899, 11, 30, 20, 0));
        o.fields['order.deliveryDate'] = new Date(Date.UTC(2026, 2, 7));
      }),
      sampleOrder('BAD', (o) => {
        o.fields['order.deliveryTimeStart'] = '9.30';
        o.fields['order.deliveryDate'] = '2026-03-05';
      }),
    ];
    const { items, layout } = await importOrders(orders, { itemsNewRow: true, body: { timeFormat: 'H:i:s', dateFormat: 'd.m.Y' } });
    expect((await storedPayload(items[0].orderId)).order).toMatchObject({ deliveryTimeStart: '09:30', deliveryTimeEnd: '18:00', deliveryDate: '2026-03-05' });
    expect((await storedPayload(items[1].orderId)).order).toMatchObject({ deliveryTimeStart: '11:15', deliveryTimeEnd: '20:00', deliveryDate: '2026-03-07' });
    const row = layout.rowsOf.get('BAD')![0];
    expect(items[2]).toMatchObject({ clientNumber: 'BAD', code: '040002' });
    expect(items[2].errors).toEqual(
      expect.arrayContaining([
        { field: 'order.deliveryTimeStart', message: `must be a time in the format H:i:s, like 09:30:00 (cell ${layout.columnOf['order.deliveryTimeStart']}${row}: "9.30")` },
        { field: 'order.deliveryDate', message: `must be a date in the format d.m.Y, like 25.12.2026 (cell ${layout.columnOf['order.deliveryDate']}${row}: "2026-03-05")` },
      ]),
    );
  });

  it('addressString: common Russian forms are parsed and the parts go to the order', async () => {
    const forms = [
      'г. Москва, ул. Тверская, д. 7, кв. 5',
      'Санкт-Петербург, Невский пр-т 28-5',
      '101000, г Москва, ул Тверская, д 7, кв 5',
      'Московская обл, г Одинцово, ул Маршала Жукова 10к2 кв 15',
    ];
    const orders = forms.map((address, i) =>
      sampleOrder(`ADDR-${i + 1}`, (o) => {
        for (const k of ['countryCode', 'region', 'city', 'street', 'house', 'office']) delete o.fields[`recipient.${k}`];
        o.fields['recipient.addressString'] = address;
      }),
    );
    orders.push(
      sampleOrder('NO-CITY', (o) => {
        for (const k of ['countryCode', 'region', 'city', 'street', 'house', 'office']) delete o.fields[`recipient.${k}`];
        o.fields['recipient.addressString'] = 'ул. Тверская, д. 7';
      }),
    );
    const { items, layout } = await importOrders(orders, { itemsNewRow: true });
    const recipients = await Promise.all(items.slice(0, 4).map(async (i) => (await storedPayload(i.orderId)).recipient));
    expect(recipients[0]).toMatchObject({ countryCode: 'RU', region: 'Москва', city: 'Москва', street: 'ул. Тверская', house: '7', office: '5', addressString: forms[0] });
    expect(recipients[1]).toMatchObject({ city: 'Санкт-Петербург', street: 'Невский пр-т', house: '28', office: '5' });
    expect(recipients[2]).toMatchObject({ index: '101000', city: 'Москва', street: 'ул Тверская', house: '7', office: '5' });
    expect(recipients[3]).toMatchObject({ region: 'Московская обл', city: 'Одинцово', street: 'ул Маршала Жукова', house: '10', block: '2', office: '15' });
    const cell = `${layout.columnOf['recipient.addressString']}${layout.rowsOf.get('NO-CITY')![0]}`;
    expect(items[4].errors).toEqual([
      { field: 'recipient.addressString', message: `no city found (cell ${cell}: "ул. Тверская, д. 7"): write the address like "г. Москва, ул. Тверская, д. 7", or map recipient.city` },
    ]);
  });

  it('defaultData fills fields with no column, and sumByOrderRows sums a column over the rows of each order, exactly', async () => {
    const orders = [sampleOrder('SUM-1'), sampleOrder('SUM-2')].map((o) => {
      for (const k of ['order.pickupType', 'order.deliveryType', 'order.tariffId', 'cost.assessedCost', 'cost.codCost']) delete o.fields[k];
      return o;
    });
    const { buffer, columnMap, layout } = await ordersWorkbook(orders, {
      itemsNewRow: true,
      customize: (ws, _wb, l) => {
        // a column no field maps: the shop's line totals, 2000.25 + 990.25 = 2990.5 per order
        const col = l.lastColumn + 1;
        ws.getRow(l.headerRow).getCell(col).value = 'Сумма строки';
        for (const rows of l.rowsOf.values()) rows.forEach((r, i) => (ws.getRow(r).getCell(col).value = i === 0 ? 2000.25 : 990.25));
      },
    });
    const lineTotals = String.fromCharCode(64 + layout.lastColumn + 1);
    const res = await upload(
      uploadBody(buffer, columnMap, {
        itemsNewRow: true,
        defaultData: {
          'order.pickupType': '1',
          'order.deliveryType': '1',
          'order.tariffId': '103',
          'cost.assessedCost': 'sumByOrderRows(item.assessedCost)',
          'cost.codCost': `sumByOrderRows(${lineTotals})`,
        },
      }),
    );
    expect(res.status, res.text).toBe(200);
    for (const item of res.json.resultItems) {
      const payload = await storedPayload(item.orderId);
      expect(payload.order).toMatchObject({ pickupType: 1, deliveryType: 1, tariffId: 103 });
      expect(payload.cost).toMatchObject({ assessedCost: 1500, codCost: 2990.5 });
    }
  });

  it('a cell with a value wins over defaultData; an empty cell takes the default', async () => {
    const orders = [sampleOrder('D-1'), sampleOrder('D-2', (o) => delete o.fields['recipient.email'])];
    const { items } = await importOrders(orders, { itemsNewRow: true, body: { defaultData: { 'recipient.email': 'orders@shop.example' } } });
    expect((await storedPayload(items[0].orderId)).recipient.email).toBe('anna@example.ru');
    expect((await storedPayload(items[1].orderId)).recipient.email).toBe('orders@shop.example');
  });

  it('numbers written the Russian way (decimal comma, spaces, ₽) are read as numbers', async () => {
    const orders = [
      sampleOrder('RU-NUM', (o) => {
        o.fields['cost.codCost'] = '2 990,50 ₽';
        o.fields['cost.deliveryCost'] = '490,5';
      }),
    ];
    const { items } = await importOrders(orders, { itemsNewRow: true });
    expect((await storedPayload(items[0].orderId)).cost).toMatchObject({ codCost: 2990.5, deliveryCost: 490.5 });
  });

  it('extraParams columns must be additional services of the delivery service; their values are typed', async () => {
    const orders = [sampleOrder('EX-1', (o) => (o.fields['extraParams.insurance'] = 'да')), sampleOrder('EX-2', (o) => (o.fields['extraParams.insurance'] = 'может быть'))];
    const { items } = await importOrders(orders, { itemsNewRow: true });
    expect((await storedPayload(items[0].orderId)).extraParams).toEqual({ insurance: true });
    expect(items[1].errors).toEqual([{ field: 'extraParams.insurance', message: expect.stringMatching(/^must be yes or no/) }]);

    const { buffer, columnMap } = await ordersWorkbook([sampleOrder('EX-3', (o) => (o.fields['extraParams.teleport'] = '1'))], { itemsNewRow: true });
    const res = await upload(uploadBody(buffer, columnMap, { itemsNewRow: true }));
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([{ field: 'columnMap.extraParams.teleport', message: expect.stringMatching(/sandbox-express has no additional service teleport \(it has: insurance, fitting/) }]);
  });
});

describe('POST /orders/upload: required fields', () => {
  // One order per required field, that field's cell left empty: each is reported on its row, the rest are created.
  const required: [string, string][] = [
    ['order.weight', 'order.weight'],
    ['order.pickupType', 'order.pickupType'],
    ['order.deliveryType', 'order.deliveryType'],
    ['order.tariffId', 'order.tariffId'],
    ['cost.assessedCost', 'cost.assessedCost'],
    ['cost.codCost', 'cost.codCost'],
    ['recipient.phone', 'recipient.phone'],
    ['recipient.contactName', 'recipient.contactName'],
    ['recipient.countryCode', 'recipient.countryCode'],
    ['recipient.region', 'recipient.region'],
    ['recipient.city', 'recipient.city'],
    ['recipient.street', 'recipient.street'],
    ['recipient.house', 'recipient.house'],
    ['place.weight', 'place.weight'],
    ['place.length', 'place.length'],
    ['place.width', 'place.width'],
    ['place.height', 'place.height'],
  ];
  const itemRequired = ['item.description', 'item.quantity', 'item.weight'];

  it('an empty required cell fails its order with "is required" and the cell; the other orders are created', async () => {
    const orders = [
      sampleOrder('OK-1'),
      ...required.map(([key]) =>
        sampleOrder(`NO-${key}`, (o) => {
          o.fields[key] = null;
          // Санкт-Петербург is its own region: an empty region is filled for it, not for Казань
          if (key === 'recipient.region') o.fields['recipient.city'] = 'Казань';
        }),
      ),
      ...itemRequired.map((key) => sampleOrder(`NO-${key}`, (o) => (o.items[1][key] = null))),
    ];
    const { items, layout } = await importOrders(orders, { itemsNewRow: true });
    expect(items[0]).toMatchObject({ clientNumber: 'OK-1', orderId: expect.any(Number) });
    for (const [key, field] of required) {
      const item = items.find((i) => i.clientNumber === `NO-${key}`);
      const row = layout.rowsOf.get(`NO-${key}`)![0];
      expect(item, key).toMatchObject({ code: '040002', message: 'Validation error', row });
      expect(item.errors, key).toContainEqual({ field, message: `is required (cell ${layout.columnOf[key]}${row} is empty)` });
      expect(item.description).toContain(`${field}: is required`);
      expect(item.moreInfo).toBe(`Sheet «Заказы», rows ${row}–${row + 1}`);
    }
    for (const key of itemRequired) {
      const item = items.find((i) => i.clientNumber === `NO-${key}`);
      const itemRow = layout.rowsOf.get(`NO-${key}`)![1];
      expect(item.errors, key).toContainEqual({ field: key, message: `is required (cell ${layout.columnOf[key]}${itemRow} is empty)` });
    }
    expect(await orderCount()).toBe(1);
  });

  it('a row without a clientNumber is reported on its own', async () => {
    const { items, layout } = await importOrders([sampleOrder('OK-1'), sampleOrder('', (o) => (o.fields['order.clientNumber'] = null))], { itemsNewRow: true });
    expect(items[1]).toMatchObject({ clientNumber: '', row: 5, errors: [{ field: 'order.clientNumber', message: `is required (cell ${layout.columnOf['order.clientNumber']}5 is empty)` }] });
  });

  it('pointOutId is required when deliveryType is 2', async () => {
    const { items } = await importOrders(
      [sampleOrder('POINT', (o) => Object.assign(o.fields, { 'order.deliveryType': 2, 'order.tariffId': 104 }))],
      { itemsNewRow: true },
    );
    expect(items[0].errors).toContainEqual({ field: 'order.pointOutId', message: 'is required when deliveryType = 2' });
  });

  it('a required field with neither a column nor defaultData refuses the whole upload before the file is read', async () => {
    const { buffer, columnMap } = await ordersWorkbook(twoOrders(), { itemsNewRow: true });
    const { 'order.weight': _w, 'recipient.city': _c, ...partial } = columnMap;
    const body = uploadBody(buffer, partial, { itemsNewRow: true });
    const res = await upload({ ...body, defaultData: { ...body.defaultData, 'sender.phone': '' } });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('040002');
    expect(res.json.errors).toEqual(
      expect.arrayContaining([
        { field: 'columnMap.order.weight', message: 'is required: map a column or give a value in defaultData' },
        { field: 'columnMap.sender.phone', message: 'is required: map a column or give a value in defaultData' },
        { field: 'columnMap.recipient.city', message: expect.stringMatching(/^is required unless recipient.addressString is given/) },
      ]),
    );
    expect(await orderCount()).toBe(0);
  });

  it('unknown fields, bad column letters and bad formats are named', async () => {
    const { buffer, columnMap } = await ordersWorkbook([sampleOrder('X')], { itemsNewRow: true });
    const body = uploadBody(buffer, { ...columnMap, 'order.colour': 'B', 'order.weight': '1B' }, { itemsNewRow: true, timeFormat: 'HH:MM' });
    const res = await upload(body);
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual(
      expect.arrayContaining([
        { field: 'columnMap.order.colour', message: 'is not a field of the upload table' },
        { field: 'columnMap.order.weight', message: 'must be a column letter such as A or AB, not "1B"' },
        { field: 'columnSettings.timeFormat', message: 'HH:MM has no minutes (i; M is a month): use tokens such as H:i or H:i:s' },
      ]),
    );
  });

  it('a body without its required parts is a 040002 naming them', async () => {
    const res = await upload({ providerKey: 'sandbox-express', file: {} });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual(
      expect.arrayContaining([
        { field: 'columnSettings', message: 'is required' },
        { field: 'columnMap', message: 'is required' },
        { field: 'file.base64', message: 'is required: give file.base64 or file.url' },
      ]),
    );
  });
});

describe('POST /orders/upload: importing the same file twice', () => {
  it('creates nothing the second time and reports every order as a duplicate of the order it already is', async () => {
    const { buffer, columnMap } = await ordersWorkbook(twoOrders(), { itemsNewRow: true });
    const body = uploadBody(buffer, columnMap, { itemsNewRow: true });
    const first = await upload(body);
    const second = await upload(body);
    expect(second.status).toBe(200);
    expect(await orderCount()).toBe(2);
    second.json.resultItems.forEach((item: any, i: number) => {
      const orderId = first.json.resultItems[i].orderId;
      expect(item).toMatchObject({ clientNumber: `SHOP-${i + 1}`, code: '040002' });
      expect(item.errors).toEqual([
        {
          field: 'order.clientNumber',
          message: `an order with clientNumber SHOP-${i + 1} already exists (orderId ${orderId}); this row was not imported again. clientNumber must be unique within the company`,
        },
      ]);
    });
  });

  it('a clientNumber used twice in one file keeps the first order and reports the second', async () => {
    const { items } = await importOrders([sampleOrder('SAME'), sampleOrder('OTHER'), sampleOrder('SAME')], { itemsNewRow: true });
    expect(items.map((i) => Boolean(i.orderId))).toEqual([true, true, false]);
    expect(items[2].errors[0]).toEqual({ field: 'order.clientNumber', message: expect.stringMatching(/already used by the order in row 3 of this file/) });
  });

  it('another company may use the same clientNumbers', async () => {
    const { buffer, columnMap } = await ordersWorkbook(twoOrders(), { itemsNewRow: true });
    const body = uploadBody(buffer, columnMap, { itemsNewRow: true });
    await upload(body);
    const other = await server.call('POST', '/orders/upload', { body, token: server.tokenB });
    expect(other.json.resultItems.every((i: any) => i.orderId)).toBe(true);
  });
});

describe('POST /orders/upload in XML', () => {
  it('takes a request document with booleans as 1/0 and answers a response document', async () => {
    const { buffer, columnMap } = await ordersWorkbook(twoOrders(), { itemsNewRow: false, nameFormat: true });
    const tags = (o: Record<string, string>) => Object.entries(o).map(([k, v]) => `<${k}>${v}</${k}>`).join('');
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?><request><providerKey>sandbox-express</providerKey><mode>sync</mode><errorsToFile>0</errorsToFile>' +
      `<file><base64>${buffer.toString('base64')}</base64><type>xlsx</type><url></url></file>` +
      '<columnSettings><dateFormat>d.m.Y</dateFormat><timeFormat>H:i</timeFormat><nameFormat>1</nameFormat><itemsNewRow>0</itemsNewRow><rowStart>3</rowStart><rowEnd></rowEnd></columnSettings>' +
      `<columnMap>${tags(columnMap)}</columnMap><defaultData>${tags(senderDefaults)}</defaultData></request>`;
    const res = await server.call('POST', '/orders/upload', { raw: xml, headers: { 'Content-Type': 'application/xml', Accept: 'application/xml' } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/xml/);
    const doc = new XMLParser({ parseTagValue: false }).parse(res.text);
    const items = doc.response.resultItems.item;
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({ clientNumber: 'SHOP-1', row: '3', orderId: expect.stringMatching(/^\d+$/), providerNumber: expect.stringMatching(/^SBE/) });
    expect(doc.response.base64).toBe('');
    expect((await storedPayload(Number(items[0].orderId))).recipient.contactName).toBe('Смирнова Анна Петровна');
  });

  it('failed rows come back as items with their errors as a list', async () => {
    const { buffer, columnMap } = await ordersWorkbook([sampleOrder('BAD', (o) => (o.fields['recipient.phone'] = 'нет'))], { itemsNewRow: true });
    const body = uploadBody(buffer, columnMap, { itemsNewRow: true });
    const res = await server.call('POST', '/orders/upload', { body, headers: { Accept: 'application/xml' } });
    const doc = new XMLParser({ parseTagValue: false }).parse(res.text);
    const item = doc.response.resultItems.item;
    expect(item).toMatchObject({ clientNumber: 'BAD', code: '040002', errors: { item: { field: 'recipient.phone', message: expect.stringMatching(/^must be a phone number \(cell \w+3: "нет"\)$/) } } });
  });
});

describe('POST /orders/upload with file.url', () => {
  let files: Server;
  let base: string;
  const served = new Map<string, Buffer>();
  beforeEach(async () => {
    files = createServer((req, res) => {
      if (req.url === '/slow.xlsx') return; // never answers
      const body = served.get(req.url ?? '');
      if (!body) {
        res.writeHead(404).end('not here');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }).end(body);
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    await allowLocalDownloads(); // the file server is on this computer: the owner allows that in the settings
  });
  const allowLocalDownloads = () => server.app.services.settings.update(server.shop, { preferences: { allowLocalDownloads: true } });
  afterEach(async () => {
    files.closeAllConnections();
    await new Promise((resolve) => files.close(resolve));
  });

  const withUrl = (body: ReturnType<typeof uploadBody>, url: string) => ({ ...body, file: { url } });

  it('downloads the workbook and imports it', async () => {
    const { buffer, columnMap } = await ordersWorkbook(twoOrders(), { itemsNewRow: true });
    served.set('/orders.xlsx', buffer);
    const res = await upload(withUrl(uploadBody(buffer, columnMap, { itemsNewRow: true }), `${base}/orders.xlsx`));
    expect(res.status, res.text).toBe(200);
    expect(res.json.resultItems.map((i: any) => i.clientNumber)).toEqual(['SHOP-1', 'SHOP-2']);
  });

  it('a link that is not http(s), a missing file, a file too large or a server that never answers are clear 400s', async () => {
    const { buffer, columnMap } = await ordersWorkbook(twoOrders(), { itemsNewRow: true });
    const body = uploadBody(buffer, columnMap, { itemsNewRow: true });
    const ftp = await upload(withUrl(body, 'ftp://example.ru/orders.xlsx'));
    expect(ftp.json.errors).toEqual([{ field: 'file.url', message: 'must be an http:// or https:// link' }]);
    const missing = await upload(withUrl(body, `${base}/nothing.xlsx`));
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ code: '040000', description: 'file.url could not be downloaded: the server answered HTTP 404' });
    expect(await orderCount()).toBe(0);
  });

  it('stops a download past the size limit or the timeout', async () => {
    await server.close();
    server = await startTestServer({ imports: { maxFileBytes: 1000, downloadTimeoutMs: 300 } });
    await allowLocalDownloads();
    const { buffer, columnMap } = await ordersWorkbook(twoOrders(), { itemsNewRow: true });
    served.set('/big.xlsx', buffer);
    const body = uploadBody(Buffer.alloc(10), columnMap, { itemsNewRow: true });
    const big = await upload(withUrl(body, `${base}/big.xlsx`));
    expect(big.status).toBe(400);
    expect(big.json.description).toMatch(/is \d+ MB; the largest workbook accepted is 0 MB|larger than 0 MB/);
    const slow = await upload(withUrl(body, `${base}/slow.xlsx`));
    expect(slow.json.description).toBe('file.url could not be downloaded: no complete answer within 0 s');
  });
});

describe('POST /orders/upload: the delivery services\' numbers in sync mode', () => {
  it('a large upload answers once its orders are stored; they go to the delivery service right after', async () => {
    await server.close();
    server = await startTestServer({ imports: { registrationWaitMaxOrders: 1 } });
    const { buffer, columnMap } = await ordersWorkbook(twoOrders(), { itemsNewRow: true });
    const res = await upload(uploadBody(buffer, columnMap, { itemsNewRow: true }));
    expect(res.json.resultItems).toEqual([
      expect.objectContaining({ clientNumber: 'SHOP-1', providerNumber: null, status: 'uploading' }),
      expect.objectContaining({ clientNumber: 'SHOP-2', providerNumber: null, status: 'uploading' }),
    ]);
    // the jobs the import held while writing are due now
    const jobs = await server.app.db.selectFrom('outbox').select(['next_attempt_at']).execute();
    expect(jobs.every((j) => j.next_attempt_at <= server.clock.now())).toBe(true);
    await server.app.outbox.drain();
    const state = await server.app.services.imports.state(server.companyA, 1);
    expect(state.resultItems.map((i: any) => i.providerNumber)).toEqual([expect.stringMatching(/^SBE/), expect.stringMatching(/^SBE/)]);
  });
});

describe('POST /orders/upload, async mode', () => {
  it('answers at once with an uploadId; GET /orders/upload/{uploadId} gives the progress and then the results', async () => {
    const { buffer, columnMap } = await ordersWorkbook(twoOrders(), { itemsNewRow: true });
    const res = await upload(uploadBody(buffer, columnMap, { itemsNewRow: true, mode: 'async' }));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ uploadId: expect.any(Number), status: 'queued', resultItems: [], base64: null });
    let state: any;
    for (let i = 0; i < 200; i++) {
      state = (await server.call('GET', `/orders/upload/${res.json.uploadId}`)).json;
      if (state.status === 'done') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(state).toMatchObject({ status: 'done', done: 2, total: 2, created: 2, failed: 0, error: null });
    expect(state.resultItems.map((i: any) => [i.clientNumber, i.row, typeof i.orderId])).toEqual([
      ['SHOP-1', 3, 'number'],
      ['SHOP-2', 5, 'number'],
    ]);
    // async mode does not wait for the delivery service; the numbers come when the outbox has run
    await server.app.outbox.drain();
    const later = (await server.call('GET', `/v1/orders/upload/${res.json.uploadId}?offset=1&limit=1`)).json;
    expect(later.resultItems).toEqual([expect.objectContaining({ clientNumber: 'SHOP-2', providerNumber: expect.stringMatching(/^SBE/) })]);
  });

  it('an async upload of a file that cannot be read is refused at once, with the reason, and nothing of it is kept', async () => {
    const res = await upload(uploadBody(Buffer.from('not a workbook'), { 'order.clientNumber': 'A' }, { itemsNewRow: true, mode: 'async', defaultData: { x: '1' } }));
    expect(res.status).toBe(400); // defaultData.x is not a field: settings are checked before anything runs
    const ok = uploadBody(Buffer.from('clientNumber;weight\n1;2'), (await ordersWorkbook(twoOrders(), { itemsNewRow: true })).columnMap, { itemsNewRow: true, mode: 'async' });
    const refused = await upload(ok);
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ code: '040000', message: 'Bad file', description: expect.stringMatching(/text \(CSV/) });
    expect(await server.app.db.selectFrom('imports').selectAll().execute()).toEqual([]);
  });

  it('another company cannot see an upload', async () => {
    const { buffer, columnMap } = await ordersWorkbook(twoOrders(), { itemsNewRow: true });
    const res = await upload(uploadBody(buffer, columnMap, { itemsNewRow: true, mode: 'async' }));
    const other = await server.call('GET', `/orders/upload/${res.json.uploadId}`, { token: server.tokenB });
    expect(other.status).toBe(404);
    await server.app.services.imports.stop(false);
  });
});

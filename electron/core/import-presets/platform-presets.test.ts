import ExcelJS from 'exceljs';
import { columnLetters } from '../import/columns';
import { importTemplate } from './import-template';
import { detectPlatform, platformMapping, platformPresets } from './platform-presets';

const headersOf = (titles: string[]) => titles.map((title, i) => ({ column: columnLetters(i + 1), title }));

describe('ready mappings of shop platforms\' order exports', () => {
  it('recognises an InSales export and maps its columns by title, wherever they stand', () => {
    const headers = headersOf(['Дата создания', 'Номер заказа', 'Статус', 'Контактное лицо', 'Телефон покупателя', 'Email покупателя', 'Полный адрес доставки', 'Название товара', 'Артикул', 'Количество', 'Цена продажи', 'Сумма к оплате', 'Способ доставки']);
    const preset = detectPlatform(headers);
    expect(preset?.id).toBe('insales');
    const mapping = platformMapping(preset!, headers);
    expect(mapping.columnMap).toMatchObject({
      'order.clientNumber': 'B', 'recipient.contactName': 'D', 'recipient.phone': 'E', 'recipient.email': 'F', 'recipient.addressString': 'G',
      'item.description': 'H', 'item.articul': 'I', 'item.quantity': 'J', 'item.cost': 'K', 'cost.codCost': 'L',
    });
    expect(mapping.itemsNewRow).toBe(true);
  });

  it('takes WooCommerce\'s surname and first name columns as a name in parts', () => {
    const headers = headersOf(['Order Number', 'Order Date', 'First Name (Shipping)', 'Last Name (Shipping)', 'Phone (Billing)', 'Address 1&2 (Shipping)', 'City (Shipping)', 'Postcode (Shipping)', 'Item Name', 'SKU', 'Quantity', 'Item Cost', 'Order Total Amount']);
    const mapping = platformMapping(detectPlatform(headers)!, headers);
    expect(mapping.platform).toBe('woocommerce');
    expect(mapping.nameFormat).toBe(true);
    expect(mapping.columnMap).toMatchObject({ 'recipient.contactName': 'D,C', 'recipient.phone': 'E', 'recipient.city': 'G', 'recipient.index': 'H', 'item.description': 'I', 'cost.codCost': 'M' });
  });

  it('reads an older WooCommerce export too: "Zip (Shipping)", the product as "Name", quantities less refunds', () => {
    const headers = headersOf(['Order Number', 'Order Status', 'Full Name (Shipping)', 'Phone (Billing)', 'Address 1 (Shipping)', 'City (Shipping)', 'Zip (Shipping)', 'Item #', 'SKU', 'Name', 'Quantity (- Refund)', 'Item Cost', 'Order Shipping Amount', 'Order Total Amount', 'Total weight']);
    const mapping = platformMapping(detectPlatform(headers)!, headers);
    expect(mapping.platform).toBe('woocommerce');
    expect(mapping.columnMap).toMatchObject({
      'recipient.contactName': 'C', 'recipient.addressString': 'E', 'recipient.index': 'G', 'item.description': 'J', 'item.quantity': 'K', 'item.cost': 'L',
      'cost.deliveryCost': 'M', 'cost.codCost': 'N', 'order.weight': 'O',
    });
  });

  it('knows Tilda (one row per order) and a 1С list', () => {
    const tilda = headersOf(['orderid', 'Name', 'Phone', 'Email', 'deliveryaddress', 'Products', 'Amount']);
    expect(platformMapping(detectPlatform(tilda)!, tilda)).toMatchObject({ platform: 'tilda', itemsNewRow: false, columnMap: { 'order.clientNumber': 'A', 'item.description': 'F', 'cost.codCost': 'G' } });
    const onec = headersOf(['Номер', 'Дата', 'Контрагент', 'Телефон', 'Адрес доставки', 'Номенклатура', 'Количество', 'Цена', 'Сумма документа']);
    expect(platformMapping(detectPlatform(onec)!, onec)).toMatchObject({ platform: 'onec', columnMap: { 'order.clientNumber': 'A', 'recipient.contactName': 'C', 'item.description': 'F', 'cost.codCost': 'I' } });
  });

  it('reads Tilda\'s payment keys as they are spelled (delivery_address, delivery_comment) and a 1С:УНФ «Заказ покупателя» list', () => {
    const tilda = headersOf(['orderid', 'Name', 'Phone', 'Email', 'delivery_address', 'delivery_comment', 'products', 'amount']);
    expect(platformMapping(detectPlatform(tilda)!, tilda)).toMatchObject({
      platform: 'tilda', columnMap: { 'recipient.addressString': 'E', 'order.comment': 'F', 'item.description': 'G', 'cost.codCost': 'H' },
    });
    const unf = headersOf(['Заказ покупателя', 'Дата', 'Контрагент', 'Номенклатура', 'Количество', 'Цена', 'Сумма документа']);
    expect(platformMapping(detectPlatform(unf)!, unf)).toMatchObject({ platform: 'onec', columnMap: { 'order.clientNumber': 'A', 'recipient.contactName': 'C' } });
  });

  it('claims no platform for a file with few of its titles', () => {
    expect(detectPlatform(headersOf(['Номер заказа', 'Телефон', 'Что-то ещё']))).toBeUndefined();
  });

  it('our template is a real workbook whose every column the wizard maps without a guess', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await importTemplate()) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    const titles = (ws.getRow(1).values as unknown[]).slice(1).map(String);
    const headers = headersOf(titles);
    const preset = detectPlatform(headers)!;
    expect(preset.id).toBe('shipdesk');
    const mapping = platformMapping(preset, headers);
    expect(Object.keys(mapping.columnMap).sort()).toEqual(Object.keys(platformPresets[0].titles).sort());
    expect(ws.getRow(2).getCell(2).value).toBe('До двери');
    expect(wb.worksheets[1].name).toBe('Как заполнить');
  });
});

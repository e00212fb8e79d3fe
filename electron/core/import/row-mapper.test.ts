import type { Tariff } from '../../../shared/schemas/lists';
import { messageText, type MessageRef } from '../../../shared/messages';
import { uploadSettingsSchema } from '../../../shared/schemas/upload';
import type { CellValue, SheetRow } from './cells';
import { completeWizardSettings, wizardOptional } from './import-wizard';
import { createOrderMapper } from './row-mapper';
import { compileSettings } from './settings';

const tariffs: Tariff[] = [
  { id: 11, providerKey: 'shop-post', name: 'Посылка до двери', description: null, aliasName: 'Дверь', weightMin: 0, weightMax: 30_000, pickupType: 1, deliveryType: 1, paymentCash: 1 },
  { id: 12, providerKey: 'shop-post', name: 'Посылка в ПВЗ', description: null, aliasName: null, weightMin: 0, weightMax: 20_000, pickupType: 2, deliveryType: 2, paymentCash: 1 },
  { id: 13, providerKey: 'shop-post', name: 'Курьер забирает, в ПВЗ', description: null, aliasName: null, weightMin: 0, weightMax: 20_000, pickupType: 1, deliveryType: 2, paymentCash: 1 },
];

/** A web shop's export: number, delivery in words, tariff by name, name, phone, address, item, quantity, price, COD. */
const columnMap = {
  'order.clientNumber': 'A', 'order.deliveryType': 'B', 'order.tariffId': 'C', 'recipient.contactName': 'D', 'recipient.phone': 'E',
  'recipient.addressString': 'F', 'item.description': 'G', 'item.quantity': 'H', 'item.cost': 'I', 'item.weight': 'J', 'cost.codCost': 'K', 'order.pointOutId': 'L',
};
const sender = { contactName: 'Склад «Ромашка»', phone: '+74951234567', countryCode: 'RU', region: 'Москва', city: 'Москва', street: 'ул. Ленина', house: '1' };

async function mapRows(rows: CellValue[][], options: { wizard: boolean; map?: Record<string, string> }) {
  let settings = uploadSettingsSchema.parse({ providerKey: 'shop-post', columnSettings: { timeFormat: 'H:i', nameFormat: false, itemsNewRow: true }, columnMap: options.map ?? columnMap });
  if (options.wizard) settings = completeWizardSettings(settings, sender);
  const compiled = await compileSettings(settings, { lookupServices: async () => [], lookupTariffs: async () => tariffs, optional: options.wizard ? wizardOptional : undefined });
  const mapper = createOrderMapper(compiled);
  const sheet: SheetRow[] = rows.map((cells, i) => ({ row: i + 2, cells }));
  return [...sheet.flatMap((r) => mapper.push(r)), ...mapper.finish()];
}

describe('rows in shop words, as the wizard reads them', () => {
  it('takes "До двери" / "ПВЗ" and tariffs by name, the sender from the profile, weights and declared value from the items', async () => {
    const [door, point] = await mapRows(
      [
        ['1001', 'До двери', 'Посылка до двери', 'Анна Семёнова', '+79161234567', 'г. Москва, ул. Тверская, д. 7', 'Футболка', 2, '995,00', 300, 1990],
        ['1001', '', '', '', '', '', 'Кружка', '', 1000, 450, ''],
        ['1002', 'ПВЗ', 'Посылка в ПВЗ', 'Олег Иванов', '89161234567', 'г. Казань, ул. Баумана, д. 1', 'Книга', 1, 650, '', 0, 200036],
      ],
      { wizard: true },
    );
    expect(door.errors).toEqual([]);
    expect(door.payload!.order).toMatchObject({ deliveryType: 1, pickupType: 1, tariffId: 11, weight: 1050 });
    expect(door.payload!.places[0]).toMatchObject({ weight: 1050 });
    expect(door.payload!.places[0].items.map((i) => i.quantity)).toEqual([2, 1]);
    expect(door.payload!.cost).toMatchObject({ assessedCost: 2990, codCost: 1990 });
    expect(door.payload!.sender).toMatchObject({ contactName: 'Склад «Ромашка»', city: 'Москва', house: '1' });
    // the book has no weight: the order needs one from somewhere, and says so
    expect(point.payload).toBeUndefined();
    expect(point.errors.map((e) => e.field)).toEqual(['order.weight']);
  });

  it('one tariff chosen for the file: a row asking for the other delivery gets the service\'s tariff that does it', async () => {
    const { 'order.tariffId': _none, ...map } = columnMap;
    let settings = uploadSettingsSchema.parse({ providerKey: 'shop-post', columnSettings: { timeFormat: 'H:i', nameFormat: false, itemsNewRow: true }, columnMap: map, defaultData: { 'order.tariffId': '11' } });
    settings = completeWizardSettings(settings, sender);
    const mapper = createOrderMapper(await compileSettings(settings, { lookupServices: async () => [], lookupTariffs: async () => tariffs, optional: wizardOptional }));
    const row = (n: string, delivery: string, point: number | string) => ({ row: 2, cells: [n, delivery, '', 'Анна', '+79161234567', 'г. Москва, ул. Тверская, д. 7', 'Футболка', 1, 995, 300, 0, point] as CellValue[] });
    const orders = [...mapper.push(row('2001', 'До двери', '')), ...mapper.push({ ...row('2002', 'ПВЗ', 200036), row: 3 }), ...mapper.finish()];
    expect(orders.map((o) => [o.payload?.order.tariffId, o.payload?.order.deliveryType, o.payload?.order.pickupType])).toEqual([[11, 1, 1], [13, 2, 1]]);
  });

  it('takes a row\'s own delivery service by its name ("Почта России", "Почта"), and leaves a name it does not know for the order check', async () => {
    const map = { ...columnMap, 'order.providerKey': 'M' };
    let settings = uploadSettingsSchema.parse({ providerKey: 'shop-post', columnSettings: { timeFormat: 'H:i', nameFormat: false, itemsNewRow: true }, columnMap: map });
    settings = completeWizardSettings(settings, sender);
    const deliveryServices = () => [{ key: 'shop-post', name: 'Песочница Почта (тест)' }, { key: 'russian-post', name: 'Почта России' }];
    const mapper = createOrderMapper(await compileSettings(settings, { lookupServices: async () => [], lookupTariffs: async () => tariffs, deliveryServices, optional: wizardOptional }));
    const row = (n: number, service: string) => ({ row: n, cells: [String(n), 'До двери', 11, 'Анна', '+79161234567', 'г. Москва, ул. Тверская, д. 7', 'Футболка', 1, 995, 300, 0, '', service] as CellValue[] });
    const orders = [...mapper.push(row(2, 'Почта России')), ...mapper.push(row(3, 'почта')), ...mapper.push(row(4, '')), ...mapper.push(row(5, 'Голубиная почта')), ...mapper.finish()];
    expect(orders.map((o) => o.payload?.order.providerKey)).toEqual(['russian-post', 'russian-post', 'shop-post', 'Голубиная почта']);
  });

  it('names the cell and the words it takes when a cell means neither', async () => {
    const [order] = await mapRows([['1003', 'завтра', 'Посылка в никуда', 'Анна', '+79161234567', 'г. Москва, ул. Тверская, д. 7', 'Футболка', 1, 995, 300, 0]], { wizard: true });
    expect(order.errors.map(({ field, row, message }) => ({ field, row, message }))).toEqual([
      { field: 'order.deliveryType', row: 2, message: 'must be "до двери" (1) or "ПВЗ" (2) (cell B2: "завтра")' },
      { field: 'order.tariffId', row: 2, message: 'must be a tariff of shop-post: "Посылка до двери", "Посылка в ПВЗ", "Курьер забирает, в ПВЗ" (or its number) (cell C2: "Посылка в никуда")' },
    ]);
    // The same errors by key, as the window and the errors file say them in Russian.
    expect(order.errors.map((e) => messageText(e as MessageRef, 'ru'))).toEqual([
      'Напишите «до двери» или «ПВЗ» (или 1, 2) (ячейка B2: «завтра»)',
      'Такого тарифа у службы shop-post нет; её тарифы: "Посылка до двери", "Посылка в ПВЗ", "Курьер забирает, в ПВЗ" (или номер тарифа) (ячейка C2: «Посылка в никуда»)',
    ]);
  });

  it('a weight cell in words is one error, naming its cell (not the order\'s weight missing as well)', async () => {
    const [order] = await mapRows([['1006', 'до двери', 'Посылка до двери', 'Анна', '+79161234567', 'г. Москва, ул. Тверская, д. 7', 'Футболка', 1, 995, 'тяжёлый', 0]], { wizard: true });
    expect(order.payload).toBeUndefined();
    expect(order.errors.map((e) => [e.field, e.row, e.message])).toEqual([['item.weight', 2, 'must be a number (cell J2: "тяжёлый")']]);
    expect(messageText(order.errors[0] as MessageRef, 'ru')).toContain('ячейка J2: «тяжёлый»');
  });

  it('says where an empty required value should have come from, by key', async () => {
    const [order] = await mapRows([['1005', 'до двери', '', 'Анна', '', 'г. Москва, ул. Тверская, д. 7', 'Футболка', 1, 995, 300, 0]], { wizard: true });
    const phone = order.errors.find((e) => e.field === 'recipient.phone')!;
    expect(phone.message).toBe('is required (cell E2 is empty)');
    expect(messageText(phone as MessageRef, 'ru')).toBe('Заполните поле (ячейка E2 пуста)');
  });

  it('the interface\'s upload still demands every required field of its table, words in cells accepted', async () => {
    await expect(mapRows([], { wizard: false })).rejects.toMatchObject({ body: { errors: expect.arrayContaining([{ field: 'columnMap.place.weight', message: expect.any(String) }, { field: 'columnMap.sender.phone', message: expect.any(String) }]) } });
    const full = {
      ...columnMap, 'order.weight': 'M', 'order.pickupType': 'N', 'cost.assessedCost': 'K', 'place.weight': 'M', 'place.length': 'O', 'place.width': 'O', 'place.height': 'O',
      'sender.contactName': 'D', 'sender.phone': 'E', 'sender.addressString': 'F',
    };
    const [order] = await mapRows([['1004', 'курьер', 11, 'Анна', '+79161234567', 'г. Москва, ул. Тверская, д. 7', 'Футболка', 1, 995, 300, 995, '', 400, 'Заберёт курьер', 10]], { wizard: false, map: full });
    expect(order.errors).toEqual([]);
    expect(order.payload!.order).toMatchObject({ deliveryType: 1, pickupType: 1, tariffId: 11 });
  });
});

import { platformPresets } from './platform-presets';

/**
 * Our own order template, downloadable from the wizard: the titles the wizard maps without asking
 * (the ShipDesk preset), two example orders written as a shop writes them (words, not codes), and a
 * second sheet that says how to fill it in (the first sheet is the one imported).
 */

const template = platformPresets.find((p) => p.id === 'shipdesk')!;

/** Example orders: one to the door with two items, one to a pickup point. Keys are fields of the template. */
const examples: Record<string, string | number>[] = [
  {
    'order.clientNumber': '1001', 'order.deliveryType': 'До двери', 'order.pickupType': 'Заберёт курьер', 'recipient.contactName': 'Семёнова Анна Петровна',
    'recipient.phone': '+7 916 123-45-67', 'recipient.addressString': 'г. Москва, ул. Тверская, д. 7, кв. 12', 'cost.codCost': 2990, 'item.description': 'Футболка',
    'item.articul': 'TS-01', 'item.quantity': 2, 'item.cost': 995, 'item.weight': 300,
  },
  { 'order.clientNumber': '1001', 'item.description': 'Кружка', 'item.articul': 'MG-07', 'item.quantity': 1, 'item.cost': 1000, 'item.weight': 450 },
  {
    'order.clientNumber': '1002', 'order.deliveryType': 'ПВЗ', 'order.pickupType': 'Сдам в отделение', 'recipient.contactName': 'Иванов Олег',
    'recipient.phone': '89161234567', 'recipient.addressString': 'г. Казань, ул. Баумана, д. 1', 'cost.codCost': 0, 'item.description': 'Книга', 'item.quantity': 1,
    'item.cost': 650, 'item.weight': 500, 'order.comment': 'Оплачен на сайте',
  },
];

const notes = [
  'Как заполнить шаблон ShipDesk',
  'Одна строка — один товар. Строки одного заказа идут подряд с одним номером заказа; данные заказа достаточно написать в его первой строке.',
  'Доставка: «До двери» или «ПВЗ» (в пункт выдачи). Передача заказа: «Заберёт курьер» или «Сдам в отделение».',
  'Тариф и пункт выдачи можно не заполнять: тариф выбирается в мастере импорта для всех заказов, номер пункта выдачи нужен для доставки в ПВЗ.',
  'Отправитель берётся из профиля отправителя по умолчанию (Настройки → Отправители).',
  'Вес в граммах, суммы в рублях. Объявленная ценность, если пусто, — сумма товаров.',
];

/** The template as an xlsx file. */
export async function importTemplate(): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs'); // with the first download, not with the app
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Заказы');
  const keys = Object.keys(template.titles);
  ws.columns = keys.map((key) => ({ header: template.titles[key][0], key, width: Math.max(12, template.titles[key][0].length + 4) }));
  ws.getRow(1).font = { bold: true };
  for (const example of examples) ws.addRow(Object.fromEntries(keys.map((k) => [k, example[k] ?? null])));
  const help = wb.addWorksheet('Как заполнить');
  help.getColumn(1).width = 120;
  notes.forEach((line, i) => {
    help.getCell(`A${i + 1}`).value = line;
    if (i === 0) help.getCell('A1').font = { bold: true };
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

import ExcelJS from 'exceljs';
import { orderPayload } from './fixtures';
import { createRng } from './prng';

/** The columns of the generated shop export: one row per item, each repeating its order's data. */
const columns = [
  ['order.clientNumber', 'Номер заказа'],
  ['order.tariffId', 'Тариф'],
  ['order.pickupType', 'Забор'],
  ['order.deliveryType', 'Доставка'],
  ['order.weight', 'Вес заказа, г'],
  ['cost.assessedCost', 'Объявленная ценность'],
  ['cost.codCost', 'Наложенный платёж'],
  ['cost.deliveryCost', 'Стоимость доставки'],
  ['recipient.contactName', 'Получатель'],
  ['recipient.phone', 'Телефон'],
  ['recipient.countryCode', 'Страна'],
  ['recipient.region', 'Регион'],
  ['recipient.city', 'Город'],
  ['recipient.street', 'Улица'],
  ['recipient.house', 'Дом'],
  ['recipient.office', 'Квартира'],
  ['place.weight', 'Вес места, г'],
  ['place.length', 'Длина'],
  ['place.width', 'Ширина'],
  ['place.height', 'Высота'],
  ['item.description', 'Товар'],
  ['item.articul', 'Артикул'],
  ['item.quantity', 'Количество'],
  ['item.cost', 'Цена'],
  ['item.assessedCost', 'Оценка'],
  ['item.weight', 'Вес товара, г'],
] as const;

const letter = (i: number) => (i < 26 ? String.fromCharCode(65 + i) : `A${String.fromCharCode(65 + i - 26)}`);

/** The upload settings that read the generated file (POST /orders/upload's fields besides `file` and `mode`). */
export const uploadSettings = {
  providerKey: 'sandbox-express',
  columnSettings: { timeFormat: 'H:i', dateFormat: 'd.m.Y', nameFormat: false, itemsNewRow: true, rowStart: 2 },
  columnMap: Object.fromEntries(columns.map(([key], i) => [key, letter(i)])),
  defaultData: {
    'sender.countryCode': 'RU',
    'sender.region': 'Москва',
    'sender.city': 'Москва',
    'sender.street': 'Тверская',
    'sender.house': '7',
    'sender.contactName': 'Иван Петров',
    'sender.phone': '+79161234567',
    'sender.companyName': 'ООО Ромашка',
  },
};

/**
 * Writes a shop's export: `orders` orders of `itemsPerOrder` item rows each (one row per item, the
 * order's columns repeated), a header row on top. Seeded: the same file every run.
 */
export async function writeOrdersWorkbook(file: string, orders: number, itemsPerOrder: number, seed: number, prefix = 'IMP-') {
  const rng = createRng(seed);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true, useStyles: false });
  const sheet = workbook.addWorksheet('Заказы');
  sheet.addRow(columns.map(([, title]) => title)).commit();
  for (let n = 1; n <= orders; n++) {
    const o = orderPayload(rng, `${prefix}${String(n).padStart(6, '0')}`, itemsPerOrder);
    const place = o.places[0];
    for (const item of place.items) {
      const r = o.recipient;
      sheet
        .addRow([
          o.order.clientNumber, o.order.tariffId, o.order.pickupType, o.order.deliveryType, o.order.weight,
          o.cost.assessedCost, o.cost.codCost, o.cost.deliveryCost,
          r.contactName, r.phone, r.countryCode, r.region, r.city, r.street, r.house, r.office ?? null,
          place.weight, place.length, place.width, place.height,
          item.description, item.articul, item.quantity, item.cost, item.assessedCost, item.weight,
        ])
        .commit();
    }
  }
  sheet.commit();
  await workbook.commit();
}

import type { HeaderCell, SuggestedMapping } from '../import/header-suggest';
import { suggestMapping } from '../import/header-suggest';
import { foldWords } from '../import/choice-words';

/**
 * Ready mappings for the order exports of common shop platforms, by their column titles (a platform's
 * columns move with its export settings; their titles do not). A file's titles are matched folded (case,
 * ё, spaces and punctuation aside); the columns no title of the platform names are guessed as usual.
 */

export type PlatformId = 'shipdesk' | 'insales' | 'tilda' | 'woocommerce' | 'onec';

export interface PlatformPreset {
  id: PlatformId;
  /** Shown as is: a proper name. */
  name: string;
  /** Field → the titles the platform gives its column (the first is the one our template writes). */
  titles: Readonly<Record<string, readonly string[]>>;
  /** Each item on a row of its own that repeats the order's columns. */
  itemsNewRow: boolean;
  /** The recipient's name in surname / first name columns (contactName lists them in that order). */
  nameParts?: readonly (readonly string[])[];
}

/** Our own template (import.template writes it): every title the wizard knows without guessing. */
const shipdesk: PlatformPreset = {
  id: 'shipdesk',
  name: 'ShipDesk',
  itemsNewRow: true,
  titles: {
    'order.clientNumber': ['Номер заказа'],
    'order.deliveryType': ['Доставка'],
    'order.pickupType': ['Передача заказа'],
    'order.tariffId': ['Тариф'],
    'order.pointOutId': ['Пункт выдачи'],
    'order.deliveryDate': ['Дата доставки'],
    'order.comment': ['Комментарий'],
    'recipient.contactName': ['Получатель'],
    'recipient.phone': ['Телефон'],
    'recipient.email': ['E-mail'],
    'recipient.addressString': ['Адрес доставки'],
    'cost.codCost': ['Наложенный платёж'],
    'cost.assessedCost': ['Объявленная ценность'],
    'order.weight': ['Вес заказа, г'],
    'item.description': ['Товар'],
    'item.articul': ['Артикул'],
    'item.quantity': ['Количество'],
    'item.cost': ['Цена'],
    'item.weight': ['Вес товара, г'],
  },
};

/**
 * InSales: Заказы → Экспорт (one row per item).
 * Source: not verified. A search of public documentation and code (insales.ru help, samples) found no list of
 * the export's column titles; these are the titles of the export as seen by the author (#15), kept as they were.
 */
const insales: PlatformPreset = {
  id: 'insales',
  name: 'InSales',
  itemsNewRow: true,
  titles: {
    'order.clientNumber': ['Номер заказа', '№ заказа'],
    'order.deliveryType': ['Способ доставки', 'Доставка'],
    'order.comment': ['Комментарий покупателя', 'Комментарий'],
    'recipient.contactName': ['Контактное лицо', 'ФИО покупателя', 'Покупатель'],
    'recipient.phone': ['Телефон покупателя', 'Телефон'],
    'recipient.email': ['Email покупателя', 'Email', 'E-mail'],
    'recipient.addressString': ['Полный адрес доставки', 'Адрес доставки', 'Адрес'],
    'recipient.city': ['Город доставки', 'Город'],
    'recipient.index': ['Индекс доставки', 'Почтовый индекс', 'Индекс'],
    'cost.codCost': ['Сумма к оплате', 'Итоговая сумма заказа', 'Сумма заказа'],
    'cost.deliveryCost': ['Стоимость доставки'],
    'order.weight': ['Общий вес заказа', 'Вес заказа'],
    'item.description': ['Название товара', 'Товар'],
    'item.articul': ['Артикул'],
    'item.quantity': ['Количество', 'Кол-во'],
    'item.cost': ['Цена продажи', 'Цена'],
    'item.weight': ['Вес товара', 'Вес'],
    'item.barcode': ['Штрих-код', 'Штрихкод'],
  },
};

/**
 * Tilda: the orders of Tilda Store, downloaded from the site's leads (CSV saved as xlsx); one row per order.
 * Source: Tilda sends an order as the form's fields (Name, Phone, Email…) plus a `payment` object whose keys are
 * orderid, amount, products, delivery, delivery_address, delivery_comment — as a public Tilda webhook handler reads
 * them (github.com/genchez96-stack/dostavista-webhook, index.js). The leads export is assumed to title its columns
 * with the same keys (not verified against a downloaded file); the older spellings are kept beside them.
 */
const tilda: PlatformPreset = {
  id: 'tilda',
  name: 'Tilda',
  itemsNewRow: false,
  titles: {
    'order.clientNumber': ['orderid', 'Order ID', 'Номер заказа'],
    'recipient.contactName': ['Name', 'Имя'],
    'recipient.phone': ['Phone', 'Телефон'],
    'recipient.email': ['Email'],
    'recipient.addressString': ['delivery_address', 'deliveryaddress', 'Delivery address', 'Адрес доставки', 'Address'],
    'recipient.city': ['City', 'Город'],
    'recipient.index': ['Postcode', 'Индекс'],
    'order.comment': ['Comment', 'delivery_comment', 'Комментарий'],
    'cost.codCost': ['Amount', 'Сумма', 'price'],
    'item.description': ['Products', 'Товары', 'products'],
  },
};

/**
 * WooCommerce: the labels of the Advanced Order Export For WooCommerce plugin (its field list in the plugin's
 * source), one row per product. Older versions call the postcode "Zip (…)" and the product "Name".
 */
const woocommerce: PlatformPreset = {
  id: 'woocommerce',
  name: 'WooCommerce',
  itemsNewRow: true,
  nameParts: [['Last Name (Shipping)', 'Last Name (Billing)'], ['First Name (Shipping)', 'First Name (Billing)']],
  titles: {
    'order.clientNumber': ['Order Number', 'Order ID', 'Order #'],
    'order.comment': ['Customer Note'],
    'recipient.contactName': ['Full Name (Shipping)', 'Full Name (Billing)'],
    'recipient.phone': ['Phone (Shipping)', 'Phone (Billing)'],
    'recipient.email': ['Email (Billing)', 'Email'],
    'recipient.addressString': ['Address 1&2 (Shipping)', 'Address 1&2 (Billing)', 'Full Address (Shipping)', 'Address 1 (Shipping)'],
    'recipient.city': ['City (Shipping)', 'City (Billing)'],
    'recipient.region': ['State Name (Shipping)', 'State Name (Billing)'],
    'recipient.index': ['Postcode (Shipping)', 'Postcode (Billing)', 'Zip (Shipping)', 'Zip (Billing)'],
    'recipient.countryCode': ['Country Code (Shipping)', 'Country Code (Billing)'],
    'cost.codCost': ['Order Total Amount', 'Order Total'],
    'cost.deliveryCost': ['Order Shipping Amount'],
    'order.weight': ['Total weight'],
    'item.description': ['Item Name', 'Product Name', 'Name'],
    'item.articul': ['SKU'],
    'item.quantity': ['Quantity', 'Quantity (- Refund)', 'Qty'],
    'item.cost': ['Item Cost', 'Product Current Price', 'Product Price'],
    'item.weight': ['Weight'],
  },
};

/**
 * 1С-style: a sales document list or a report saved from 1С:Управление торговлей (one row per line).
 * Source: the document is «Заказ клиента» in Управление торговлей 11 and «Заказ покупателя» in 1С:УНФ (Продажи →
 * Заказы покупателей; minbanktelebank.ru, "Для чего предназначен документ «Заказ покупателя»"); the column titles
 * are the documents' attribute names (Номер, Контрагент, Сумма документа, Номенклатура, Количество, Цена), which a
 * list or report saved to Excel keeps. Not verified against a saved file.
 */
const onec: PlatformPreset = {
  id: 'onec',
  name: '1С',
  itemsNewRow: true,
  titles: {
    'order.clientNumber': ['Номер', 'Номер документа', 'Заказ клиента', 'Заказ покупателя'],
    'order.comment': ['Комментарий'],
    'recipient.contactName': ['Контактное лицо', 'Контрагент', 'Покупатель'],
    'recipient.phone': ['Телефон', 'Телефон контактного лица'],
    'recipient.email': ['Электронная почта', 'E-mail'],
    'recipient.addressString': ['Адрес доставки', 'Адрес'],
    'cost.codCost': ['Сумма документа', 'Сумма к оплате'],
    'order.weight': ['Вес документа', 'Вес'],
    'item.description': ['Номенклатура', 'Товар'],
    'item.articul': ['Артикул'],
    'item.quantity': ['Количество'],
    'item.cost': ['Цена'],
    'item.weight': ['Вес единицы', 'Вес номенклатуры'],
  },
};

export const platformPresets: readonly PlatformPreset[] = [shipdesk, insales, tilda, woocommerce, onec];

const fold = foldWords;

/** The file's column with one of these titles (the first title that is there wins). */
function columnTitled(headers: readonly HeaderCell[], titles: readonly string[]): string | undefined {
  const byTitle = new Map<string, string>();
  for (const h of headers) if (!byTitle.has(fold(h.title))) byTitle.set(fold(h.title), h.column);
  for (const t of titles) {
    const column = byTitle.get(fold(t));
    if (column) return column;
  }
  return undefined;
}

/** How many of the platform's fields the file's titles name. */
function score(preset: PlatformPreset, headers: readonly HeaderCell[]): number {
  return Object.values(preset.titles).filter((titles) => columnTitled(headers, titles) !== undefined).length;
}

/** The platform whose export this looks like: most of its fields found, and at least four. */
export function detectPlatform(headers: readonly HeaderCell[]): PlatformPreset | undefined {
  let best: { preset: PlatformPreset; score: number } | undefined;
  for (const preset of platformPresets) {
    const s = score(preset, headers);
    if (s >= 4 && (!best || s > best.score)) best = { preset, score: s };
  }
  return best?.preset;
}

export interface PlatformMapping extends SuggestedMapping {
  platform: PlatformId;
  itemsNewRow: boolean;
}

/** The platform's mapping for the file's titles; the columns it does not name are guessed from their titles. */
export function platformMapping(preset: PlatformPreset, headers: readonly HeaderCell[]): PlatformMapping {
  const guessed = suggestMapping([...headers]);
  const columnMap: Record<string, string> = {};
  const used = new Set<string>();
  const nameColumns = (preset.nameParts ?? []).map((titles) => columnTitled(headers, titles));
  const nameFormat = nameColumns.length > 0 && nameColumns.every((c) => c !== undefined);
  if (nameFormat) {
    columnMap['recipient.contactName'] = nameColumns.join(',');
    nameColumns.forEach((c) => used.add(c!));
  }
  for (const [key, titles] of Object.entries(preset.titles)) {
    const column = columnTitled(headers, titles);
    if (column && !used.has(column) && columnMap[key] === undefined) {
      columnMap[key] = column;
      used.add(column);
    }
  }
  // The rest as guessed, where the guess names a field and a column the platform left free.
  for (const [key, column] of Object.entries(guessed.columnMap)) {
    if (columnMap[key] === undefined && !column.split(',').some((c) => used.has(c))) {
      columnMap[key] = column;
      column.split(',').forEach((c) => used.add(c));
    }
  }
  const keyOf = new Map(Object.entries(columnMap).flatMap(([key, cols]) => cols.split(',').map((c) => [c, key] as const)));
  return {
    platform: preset.id,
    itemsNewRow: preset.itemsNewRow,
    columnMap,
    nameFormat: nameFormat || (guessed.nameFormat && columnMap['recipient.contactName'] === guessed.columnMap['recipient.contactName']),
    matches: headers.map((h) => ({ ...h, key: keyOf.get(h.column) ?? null })),
  };
}

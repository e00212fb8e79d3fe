import { cellText, isEmptyCell, type SheetRow } from './cells';
import { columnLetters } from './columns';

/**
 * The import wizard's first guesses: which row holds the column titles, and which field each titled
 * column fills (Russian and English titles, as shops and their CRMs export them). Guesses only: the
 * user confirms the map before anything is read for real.
 */

export interface HeaderCell {
  column: string;
  title: string;
}

export interface SuggestedMapping {
  columnMap: Record<string, string>;
  /** true when the name sits in separate surname / first name / patronymic columns. */
  nameFormat: boolean;
  /** Each titled column and the field it was matched to (null: no guess). */
  matches: { column: string; title: string; key: string | null }[];
}

/** The first of the top rows that reads like titles (mostly text, at least two cells); 1 when none does. */
export function detectHeaderRow(rows: SheetRow[]): number {
  for (const row of rows.slice(0, 20)) {
    const filled = row.cells.filter((c) => !isEmptyCell(c));
    if (filled.length < 2) continue;
    const texts = filled.filter((c) => typeof c === 'string' && !/^[\d\s.,+\-()/:]+$/.test(c));
    if (texts.length / filled.length >= 0.6) return row.row;
  }
  return rows[0]?.row ?? 1;
}

/** The titled cells of the header row. */
export function headerCells(row: SheetRow | undefined): HeaderCell[] {
  if (!row) return [];
  return row.cells.flatMap((c, i) => (isEmptyCell(c) ? [] : [{ column: columnLetters(i + 1), title: cellText(c).trim() }]));
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[_*:;"«»()[\]]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const has = (t: string, re: RegExp) => re.test(t);

/** The field a column title most likely names, or null. */
export function classifyTitle(title: string): string | null {
  const t = norm(title);
  if (!t) return null;
  const sender = has(t, /отправител|sender|продав|магазин|shipper/);
  const party = sender ? 'sender' : 'recipient';
  const itemish = has(t, /товар|единиц|вложени|позици|item|unit|product|sku/);
  const placeish = has(t, /мест|упаков|короб|посылк|place|package|box|parcel/);
  const level = itemish ? 'item' : placeish ? 'place' : 'order';

  if (has(t, /номер заказа|№ заказа|n заказа|заказ ?№|^заказ$|^номер$|^№$|order ?(number|no|id|#)|client ?number|номер отправления/)) return 'order.clientNumber';
  if (has(t, /артикул|sku|articul|vendor code|^арт/)) return 'item.articul';
  if (has(t, /штрих|barcode|ean/)) return placeish ? 'place.barcode' : 'item.barcode';
  if (has(t, /номер места|place ?number/)) return 'place.placeNumber';
  if (has(t, /кол-?во|количеств|qty|quantity|шт\b/)) return 'item.quantity';
  if (has(t, /^вес|weight|масса/)) return `${level}.weight`;
  if (has(t, /^длин|length/)) return `${level}.length`;
  if (has(t, /^ширин|width/)) return `${level}.width`;
  if (has(t, /^высот|height/)) return `${level}.height`;
  if (has(t, /наименован|описани|^товар$|название товар|description|product name|^item$|^product$|содержимое|вложение/)) return 'item.description';
  if (has(t, /наложенн|наложка|к оплате|cod|cash on delivery|сумма оплаты/)) return 'cost.codCost';
  if (has(t, /объявлен|оценочн|страхов|assessed|insurance value|declared/)) return itemish ? 'item.assessedCost' : 'cost.assessedCost';
  if (has(t, /стоимость доставки|цена доставки|delivery ?(cost|price)/)) return 'cost.deliveryCost';
  if (has(t, /^цена|стоимость|price|^cost|сумма товар/)) return 'item.cost';
  if (has(t, /способ забора|тип забора|забор|pickup ?type/)) return 'order.pickupType';
  if (has(t, /способ доставки|тип доставки|вид доставки|^доставка$|способ получения|delivery ?type|shipping method/)) return 'order.deliveryType';
  if (has(t, /передача заказа|передача в службу|способ передачи/)) return 'order.pickupType';
  if (has(t, /тариф|tariff/)) return 'order.tariffId';
  if (has(t, /пункт при[её]ма|point ?in/)) return 'order.pointInId';
  if (has(t, /пвз|пункт выдачи|постамат|point ?out|pickup point/)) return 'order.pointOutId';
  if (has(t, /служба доставки|курьерская служба|перевозчик|provider|carrier/)) return 'order.providerKey';
  if (has(t, /дата доставки|delivery ?date/)) return 'order.deliveryDate';
  if (has(t, /время доставки с|доставка с|время с|time ?(start|from)|^с$/)) return 'order.deliveryTimeStart';
  if (has(t, /время доставки по|доставка (по|до)|время (по|до)|time ?(end|to)|^(по|до)$/)) return 'order.deliveryTimeEnd';
  if (has(t, /комментар|примечан|comment|note/)) return 'order.comment';

  if (has(t, /телефон|phone|^тел\b|mobile/)) return `${party}.phone`;
  if (has(t, /e-?mail|почта/)) return `${party}.email`;
  if (has(t, /индекс|postcode|zip|postal/)) return `${party}.index`;
  if (has(t, /страна|country/)) return `${party}.countryCode`;
  if (has(t, /регион|област|край|region|state/)) return `${party}.region`;
  if (has(t, /город|населенный пункт|city|town/)) return `${party}.city`;
  if (has(t, /улиц|street/)) return `${party}.street`;
  if (has(t, /^дом|house|building/)) return `${party}.house`;
  if (has(t, /корпус|строение|block/)) return `${party}.block`;
  if (has(t, /квартир|офис|office|apartment|flat/)) return `${party}.office`;
  if (has(t, /адрес|address/)) return `${party}.addressString`;
  if (has(t, /компани|организаци|юрлицо|company/)) return `${party}.companyName`;
  if (has(t, /бренд|brand/)) return 'sender.brandName';
  if (has(t, /фио|имя|name|получатель|покупатель|клиент|customer|recipient|контактное лицо|contact/)) return `${party}.contactName`;
  return null;
}

const nameParts = [/^фамилия|surname|last ?name/, /^имя$|first ?name|given name/, /^отчество|middle ?name|patronymic/];

/** A column map from the header row: the leftmost column wins where two titles name the same field. */
export function suggestMapping(headers: HeaderCell[]): SuggestedMapping {
  const columnMap: Record<string, string> = {};
  const matches: SuggestedMapping['matches'] = [];
  // a name in parts: Фамилия / Имя / Отчество
  const partColumns = nameParts.map((re) => headers.find((h) => re.test(norm(h.title)))?.column);
  const nameFormat = partColumns[0] !== undefined && partColumns[1] !== undefined;
  if (nameFormat) columnMap['recipient.contactName'] = partColumns.filter(Boolean).join(',');
  for (const h of headers) {
    if (nameFormat && partColumns.includes(h.column)) {
      matches.push({ ...h, key: 'recipient.contactName' });
      continue;
    }
    const key = classifyTitle(h.title);
    if (key && columnMap[key] === undefined) {
      columnMap[key] = h.column;
      matches.push({ ...h, key });
    } else matches.push({ ...h, key: null });
  }
  return { columnMap, nameFormat, matches };
}

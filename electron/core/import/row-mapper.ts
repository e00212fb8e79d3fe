import type { FieldError } from '../../../shared/errors';
import type { Tariff } from '../../../shared/schemas/lists';
import { orderCreateSchema, type OrderCreate } from '../../../shared/schemas/order';
import { federalCities, parseAddress, type ParsedAddress } from '../../../shared/address-parser';
import { message, said, type MessageParam, type MessageRef } from '../../../shared/messages';
import { issueMessage } from '../../../shared/messages/issues';
import { choiceCode, foldWords, isChoiceField } from './choice-words';
import { cellText, isCellError, isEmptyCell, isFormulaWithoutResult, type CellValue, type SheetRow } from './cells';
import { columnLetters } from './columns';
import { addressParts, parties, uploadKeys, type Party } from './keys';
import { example, fromExcelSerial, fromUtcDate, hhmm, isoDate, parseWithFormat } from './php-date';
import { quickOrderCreate } from '../orders/quick-order-check';
import { serviceNamed } from './service-names';
import type { CompiledSettings, FieldPlan } from './settings';

/**
 * Rows → orders. Groups the sheet's rows into orders (itemsNewRow true: consecutive rows with one
 * clientNumber; false: an order row and the item rows under it up to the next clientNumber), reads each
 * field from its column or its default, parses addresses, names, dates and times, and validates the
 * assembled payload with the very schema POST /orders uses. Every error names the upload field and the
 * cell it came from, and the sheet row it belongs to (for the errors file).
 */

export interface RowFieldError extends FieldError {
  /** The sheet row the error belongs to: the item's row, or the order's first row. */
  row: number;
}

export interface OrderCandidate {
  /** Position in the file: the results keep this order. */
  seq: number;
  /** First sheet row of the order. */
  row: number;
  /** Every sheet row of the order. */
  rows: number[];
  clientNumber: string;
  /** The payload, valid against the schema; absent when errors say why not. */
  payload?: OrderCreate;
  errors: RowFieldError[];
  /** Turns a field of the payload (`places.0.items.1.quantity`, `order.tariffId`) into an upload field error at its cell. */
  locate?: (field: string, said: Telling) => RowFieldError;
}

/** Where a value came from, for messages; built only when a message needs it. */
type Where = { cell: string; raw: CellValue } | { default: string } | { sum: string } | { parsed: string; from: Where } | null;

/** A message with its interface English (shared/messages): what every row error carries. */
type Said = { message: string } & MessageRef;
/** A message that may have no key: a delivery service's own words, or a schema text the catalog does not know. */
type Telling = { message: string } & Partial<MessageRef>;

/** A field's value, or why it has none. `from` says where it came from: a column (its row), the default, or nothing. */
interface Resolved {
  value: unknown;
  from: 'cell' | 'default' | 'none';
  error?: MessageRef;
}

const noValue: Resolved = { value: undefined, from: 'none' };

/** What a choice field says when a cell holds none of its words. */
const choiceMessages = { 'order.deliveryType': 'import.choice.deliveryType', 'order.pickupType': 'import.choice.pickupType' } as const;

/** A cell's text as a message shows it: at most 40 characters. */
const shown = (v: CellValue) => {
  const t = cellText(v);
  return t.length > 40 ? `${t.slice(0, 40)}…` : t;
};

/** Where a value came from, as a message: "cell D8 is empty", "defaultData: \"До двери\"". */
function describe(where: Where, empty = false): MessageRef {
  if (!where) return message('import.where.none');
  if ('cell' in where) return empty ? message('import.where.cellEmpty', { cell: where.cell }) : message('import.where.cell', { cell: where.cell, value: shown(where.raw) });
  if ('default' in where) return message('import.where.default', { value: where.default });
  if ('sum' in where) return message('import.where.sum', { column: where.sum });
  return message('import.where.parsed', { field: where.parsed, where: describe(where.from) });
}

/** A reason with where its value came from: "must be a number (cell B5: \"abc\")". */
const at = (reason: MessageParam, where: MessageRef): Said => said('import.at', { reason, where });

/** Text written as a number: "1 250,50", "2990.5 ₽", "1.250,50". Anything else stays as written for the schema to refuse. */
function numberValue(v: CellValue): unknown {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return cellText(v);
  let t = v.trim().replace(/\s*(₽|руб\.?|р\.|rub)$/i, '').replace(/[\s\u00a0\u202f']/g, '');
  if (/^-?\d{1,3}(\.\d{3})+,\d+$/.test(t)) t = t.replace(/\./g, '');
  if (/^-?\d+,\d+$/.test(t)) t = t.replace(',', '.');
  return t;
}

/** Sums decimals without binary drift: rounded to the most decimals an addend has. */
function exactSum(values: number[]): number {
  let decimals = 0;
  for (const v of values) {
    const s = String(v);
    const e = /e-(\d+)$/.exec(s);
    decimals = Math.max(decimals, e ? Number(e[1]) : (s.split('.')[1]?.length ?? 0));
  }
  const sum = values.reduce((a, b) => a + b, 0);
  return Number(sum.toFixed(Math.min(decimals, 10)));
}

const toBool = (t: string): boolean | undefined => {
  const s = t.trim().toLowerCase();
  if (['1', 'true', 'да', 'yes', 'y', '+', 'истина'].includes(s)) return true;
  if (['0', 'false', 'нет', 'no', 'n', '-', 'ложь'].includes(s)) return false;
  return undefined;
};

interface Group {
  rows: SheetRow[];
  clientNumber: string;
  /** Problems of the grouping itself: no clientNumber, the same clientNumber twice, item rows without an order. */
  problem?: RowFieldError;
}

/** A mapped field and where its value goes in the payload. */
interface Slot {
  key: string;
  plan: FieldPlan;
  /** Property name in its part of the payload. */
  name: string;
  required: boolean;
}

/** Builds the orders of one sheet, row by row. */
export function createOrderMapper(settings: CompiledSettings) {
  const fields = settings.fields;
  const clientColumn = settings.clientNumberColumn;
  const seen = new Map<string, number>(); // clientNumber → first row in this file
  let current: Group | null = null;
  let seq = 0;

  // The plan of each part of the payload, worked out once for the whole file.
  const slotsOf = (prefix: string) =>
    [...fields.values()]
      .filter((p) => p.key.startsWith(`${prefix}.`))
      .map((p): Slot => ({ key: p.key, plan: p, name: p.key.slice(prefix.length + 1), required: p.spec.required === true }));
  const orderSlots = slotsOf('order');
  const costSlots = slotsOf('cost');
  const placeSlots = slotsOf('place');
  const itemSlots = slotsOf('item');
  const extraSlots = slotsOf('extraParams');
  const partySlots = {} as Record<Party, { mapped: Slot[]; required: string[]; structured: string[]; hasAddressString: boolean }>;
  for (const party of parties) {
    const own = Object.entries(uploadKeys).filter(([key]) => key.startsWith(`${party}.`));
    partySlots[party] = {
      mapped: slotsOf(party),
      required: own.filter(([, spec]) => spec.required === true).map(([key]) => key.slice(party.length + 1)),
      structured: own.filter(([, spec]) => spec.required === 'address').map(([key]) => key.slice(party.length + 1)),
      hasAddressString: fields.has(`${party}.addressString`),
    };
  }

  const tariffById = new Map((settings.tariffs ?? []).map((t) => [t.id, t]));
  const tariffByName = new Map((settings.tariffs ?? []).flatMap((t) => [t.name, t.aliasName].filter((n): n is string => !!n).map((n) => [foldWords(n), t.id] as const)));

  /** A tariff written by its name (or alias) instead of its id. */
  function tariffCode(v: string): { value: unknown } | { error: MessageRef } {
    const n = numberValue(v);
    if (/^\d+$/.test(String(n)) || tariffByName.size === 0) return { value: n }; // a number, or no names known: the schema judges
    const id = tariffByName.get(foldWords(v));
    if (id !== undefined) return { value: id };
    const names = (settings.tariffs ?? []).map((t) => `"${t.name}"`);
    return { error: message('import.tariff', { service: settings.providerKey, names: `${names.slice(0, 8).join(', ')}${names.length > 8 ? '…' : ''}` }) };
  }

  const cellAt = (row: SheetRow, column: number): CellValue => row.cells[column - 1] ?? null;
  const isEmptyRow = (row: SheetRow) => settings.mappedColumns.every((c) => isEmptyCell(cellAt(row, c)));
  const hasItemData = (row: SheetRow) => settings.itemColumns.some((c) => !isEmptyCell(cellAt(row, c)));
  const ref = (column: number, row: number) => `${columnLetters(column)}${row}`;

  /** Where the field's value on this row came from (for a message). */
  function whereOf(plan: FieldPlan | undefined, row: SheetRow): Where {
    if (!plan) return null;
    if (plan.columns.length > 1) {
      const parts = plan.columns.map((c) => cellAt(row, c));
      if (parts.some((p) => !isEmptyCell(p)) || !plan.fallback) return { cell: plan.columns.map((c) => ref(c, row.row)).join('+'), raw: parts.map(cellText).join(' ') };
    } else if (plan.columns.length === 1) {
      const v = cellAt(row, plan.columns[0]);
      if (!isEmptyCell(v) || !plan.fallback) return { cell: ref(plan.columns[0], row.row), raw: v };
    }
    if (!plan.fallback) return null;
    return plan.fallback.kind === 'text' ? { default: plan.fallback.value } : { sum: plan.fallback.arg };
  }

  function cellProblem(v: CellValue): MessageRef {
    if (isFormulaWithoutResult(v)) return message('import.cell.formula', { formula: v.formula });
    if (isCellError(v)) return message('import.cell.error', { error: v.error });
    return message('import.cell.unreadable');
  }

  /** A field's raw value on a row: its cell(s), else its default. */
  function raw(plan: FieldPlan, row: SheetRow, group: Group): Resolved {
    const columns = plan.columns;
    if (columns.length === 1) {
      const v = cellAt(row, columns[0]);
      if (!isEmptyCell(v)) {
        if (typeof v === 'object' && v !== null && !(v instanceof Date)) return { value: undefined, from: 'cell', error: cellProblem(v) };
        return { value: v, from: 'cell' };
      }
    } else if (columns.length > 1) {
      // a name in parts: surname, first name, patronymic — joined with single spaces, empty parts skipped
      let joined = '';
      for (const c of columns) {
        const v = cellAt(row, c);
        if (typeof v === 'object' && v !== null && !(v instanceof Date)) return { value: undefined, from: 'cell', error: cellProblem(v) };
        const t = cellText(v).trim();
        if (t) joined = joined ? `${joined} ${t}` : t;
      }
      if (joined) return { value: joined, from: 'cell' };
    }
    const fb = plan.fallback;
    if (!fb) return noValue;
    if (fb.kind === 'text') return { value: fb.value, from: 'default' };
    const values: number[] = [];
    for (const r of group.rows) {
      const v = cellAt(r, fb.column);
      if (isEmptyCell(v)) continue;
      const n = Number(numberValue(v));
      if (!Number.isFinite(n)) return { value: undefined, from: 'default', error: message('import.sumNotNumber', { label: `sumByOrderRows(${fb.arg})`, cell: ref(fb.column, r.row), value: shown(v) }) };
      values.push(n);
    }
    return { value: exactSum(values), from: 'default' };
  }

  /** The field's value converted for the payload, or an error. */
  function read(plan: FieldPlan, row: SheetRow, group: Group): Resolved {
    const r = raw(plan, row, group);
    if (r.error || r.value === undefined) return r;
    const v = r.value as CellValue;
    switch (plan.spec.kind) {
      case 'text':
        r.value = typeof v === 'string' ? v.trim() : cellText(v).trim();
        // A row's own delivery service, as the shop writes it ("Почта России", "Почта"): its key.
        if (plan.key === 'order.providerKey') r.value = serviceNamed(settings.deliveryServices ?? [], r.value as string) ?? r.value;
        return r;
      case 'number': {
        if (isChoiceField(plan.key) && typeof v !== 'number') {
          const code = choiceCode(plan.key, cellText(v));
          if (code === undefined) r.error = message(choiceMessages[plan.key]);
          else r.value = code;
        } else if (plan.key === 'order.tariffId' && typeof v === 'string') {
          const code = tariffCode(v);
          if ('error' in code) r.error = code.error;
          else r.value = code.value;
        } else r.value = numberValue(v);
        return r;
      }
      case 'time': {
        if (v instanceof Date) r.value = hhmm(fromUtcDate(v));
        // a day fraction (0.375 = 09:00), or the time part of a date-and-time serial
        else if (typeof v === 'number' && v >= 0 && !Number.isInteger(v)) r.value = hhmm(fromExcelSerial(v % 1));
        else if (v === 0) r.value = '00:00';
        else {
          const parts = parseWithFormat(cellText(v), settings.timeFormat);
          if (parts) r.value = hhmm(parts);
          else r.error = message('import.time', { format: settings.timeFormat.format, example: example(settings.timeFormat) });
        }
        return r;
      }
      case 'date': {
        if (v instanceof Date) r.value = isoDate(fromUtcDate(v));
        else if (typeof v === 'number' && v >= 1 && v < 2_958_466) r.value = isoDate(fromExcelSerial(v));
        else {
          const parts = parseWithFormat(cellText(v), settings.dateFormat);
          if (parts) r.value = isoDate(parts);
          else r.error = message('import.date', { format: settings.dateFormat.format, example: example(settings.dateFormat) });
        }
        return r;
      }
    }
  }

  /** Builds one order from its rows. */
  function build(group: Group): OrderCandidate {
    const first = group.rows[0];
    const candidate: OrderCandidate = { seq: seq++, row: first.row, rows: group.rows.map((r) => r.row), clientNumber: group.clientNumber, errors: [] };
    if (group.problem) {
      candidate.errors.push(group.problem);
      return candidate;
    }
    const itemRows = settings.itemsNewRow ? group.rows : group.rows.slice(1);
    if (!settings.itemsNewRow && hasItemData(first)) itemRows.unshift(first); // the order row may carry the first item too

    let errors: RowFieldError[] | undefined;
    let flagged: Set<string> | undefined; // payload paths with an error of ours (the schema's is then left out)
    const parsedParties = new Set<Party>();
    const fail = (field: string, reason: Said, row: number, path: string) => {
      (errors ??= []).push({ field, ...reason, row });
      (flagged ??= new Set()).add(path);
    };
    const required = (where: Where) => at(message('msg.required'), describe(where, true));

    /** Reads a slot into target[name]. */
    const take = (slot: Slot, row: SheetRow, target: Record<string, unknown>, path: string) => {
      const r = read(slot.plan, row, group);
      if (r.error) fail(slot.key, at(r.error, describe(whereOf(slot.plan, row))), row.row, path);
      else if (r.value !== undefined && r.value !== '') target[slot.name] = r.value;
      else if (slot.required) fail(slot.key, required(whereOf(slot.plan, row)), row.row, path);
      return r;
    };

    const order: Record<string, unknown> = {};
    const cost: Record<string, unknown> = {};
    const place: Record<string, unknown> = {};
    let tariffByDefault = false;
    for (const slot of orderSlots) {
      const r = take(slot, first, order, slot.key);
      if (slot.key === 'order.tariffId') tariffByDefault = r.from === 'default';
    }
    for (const slot of costSlots) take(slot, first, cost, slot.key);
    for (const slot of placeSlots) take(slot, first, place, `places.0.${slot.name}`);
    if (order.clientNumber === undefined && group.clientNumber) order.clientNumber = group.clientNumber;

    const addresses = {} as Record<Party, Record<string, unknown>>;
    for (const party of parties) {
      const plan = partySlots[party];
      const a: Record<string, unknown> = {};
      for (const slot of plan.mapped) {
        const r = read(slot.plan, first, group);
        const path = slot.key;
        if (r.error) fail(slot.key, at(r.error, describe(whereOf(slot.plan, first))), first.row, path);
        else if (r.value !== undefined && r.value !== '') a[slot.name] = r.value;
        // phone and contactName; the address parts are checked below
        else if (slot.required) fail(slot.key, required(whereOf(slot.plan, first)), first.row, path);
      }
      if (typeof a.addressString === 'string') {
        // the interface: when addressString is filled, the address is parsed and the parsed parts are used
        parsedParties.add(party);
        const parsed = parseAddress(a.addressString);
        for (const part of addressParts) {
          const value = parsed[part as keyof ParsedAddress];
          if (value !== undefined) a[part] = value;
        }
        a.countryCode ??= 'RU';
        if (a.city === undefined && !flagged?.has(`${party}.addressString`)) {
          const where = describe(whereOf(fields.get(`${party}.addressString`), first));
          fail(`${party}.addressString`, said('import.noCity', { where, party }), first.row, `${party}.city`);
        }
      }
      if (a.region === undefined && typeof a.city === 'string' && federalCities.has(a.city.toLowerCase().replace(/ё/g, 'е'))) a.region = a.city;
      if (!parsedParties.has(party)) {
        let missingAddress = false;
        for (const name of plan.structured) {
          if (a[name] !== undefined) continue;
          const key = `${party}.${name}`;
          if (flagged?.has(key)) continue;
          const fieldPlan = fields.get(key);
          if (fieldPlan) fail(key, required(whereOf(fieldPlan, first)), first.row, key);
          else missingAddress = true; // the settings give addressString instead, and this row leaves it empty
        }
        if (missingAddress && plan.hasAddressString && !flagged?.has(`${party}.addressString`)) {
          fail(`${party}.addressString`, required(whereOf(fields.get(`${party}.addressString`), first)), first.row, `${party}.addressString`);
        }
      }
      addresses[party] = a;
    }

    const items: Record<string, unknown>[] = [];
    for (let i = 0; i < itemRows.length; i++) {
      const item: Record<string, unknown> = {};
      for (const slot of itemSlots) take(slot, itemRows[i], item, `places.0.items.${i}.${slot.name}`);
      items.push(item);
    }
    if (items.length === 0) {
      fail('place.items', said(settings.itemsNewRow ? 'import.noItems' : 'import.noItemRows'), first.row, 'places.0.items');
    }

    let extraParams: Record<string, unknown> | undefined;
    for (const slot of extraSlots) {
      const target: Record<string, unknown> = {};
      const r = take(slot, first, target, slot.key);
      if (r.error || target[slot.name] === undefined) continue;
      const service = settings.services?.get(slot.name.toLowerCase());
      const text = String(target[slot.name]);
      let value: unknown = text;
      if (service?.valueType === 'bool') {
        value = toBool(text);
        if (value === undefined) fail(slot.key, at(message('import.yesNo'), describe(whereOf(slot.plan, first))), first.row, slot.key);
      } else if (service?.valueType === 'int' || service?.valueType === 'float') {
        const n = Number(numberValue(text));
        if (!Number.isFinite(n) || (service.valueType === 'int' && !Number.isInteger(n))) {
          fail(slot.key, at(message(service.valueType === 'int' ? 'msg.wholeNumber' : 'msg.number'), describe(whereOf(slot.plan, first))), first.row, slot.key);
        } else value = n;
      }
      (extraParams ??= {})[slot.name] = value;
    }

    place.items = items;
    fillFromParts(order, cost, place, items, tariffByDefault);
    // Every item has a weight cell, but one is not a number: that cell's own error says it, not "give a weight" as well.
    const weighed = items.length > 0 && items.every((item, i) => item.weight !== undefined || flagged?.has(`places.0.items.${i}.weight`));
    if (order.weight === undefined && weighed) (flagged ??= new Set()).add('order.weight');
    if (order.weight === undefined && place.weight === undefined && !fields.get('order.weight')?.spec.required && !flagged?.has('order.weight')) {
      fail('order.weight', said('import.noWeight'), first.row, 'order.weight');
      flagged!.add('places.0.weight');
    }
    if (flagged?.has('order.weight') && place.weight === undefined) flagged.add('places.0.weight'); // the order's weight error says it
    // A tariff that could not be read leaves the types it would give unknown: that one error says it.
    if (flagged?.has('order.tariffId')) for (const key of ['deliveryType', 'pickupType']) if (order[key] === undefined) flagged.add(`order.${key}`);
    const input = {
      order,
      cost,
      sender: addresses.sender,
      recipient: addresses.recipient,
      places: [place],
      ...(extraParams ? { extraParams } : {}),
    };

    /** A payload path → the upload field, its row and its cell. */
    const locate = (path: string, reason: Telling): RowFieldError => {
      const parts = path.split('.');
      let field = path;
      let row = first;
      if (parts[0] === 'places' && parts[2] === 'items' && parts[3] !== undefined) {
        field = parts[4] ? `item.${parts[4]}` : 'place.items';
        row = itemRows[Number(parts[3])] ?? first;
      } else if (parts[0] === 'places') {
        field = parts[2] ? `place.${parts[2]}` : 'place.items';
      }
      let where: Where = null;
      const party = parts[0] as Party;
      if ((party === 'sender' || party === 'recipient') && parsedParties.has(party) && (addressParts as readonly string[]).includes(parts[1])) {
        where = { parsed: `${party}.addressString`, from: whereOf(fields.get(`${party}.addressString`), first) };
      } else {
        where = whereOf(fields.get(field), row);
      }
      const empty = reason.key === 'msg.required';
      const said: MessageParam = reason.key ? { key: reason.key, ...(reason.params && { params: reason.params }) } : reason.message;
      return { field, ...(where ? at(said, describe(where, empty)) : reason), row: row.row };
    };

    // the common shape, valid, takes the quick way; anything else (and every error) is the schema's
    const quick = errors ? undefined : quickOrderCreate(input);
    const parsed = quick ? ({ success: true, data: quick } as const) : orderCreateSchema.safeParse(input);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = issue.path.map(String).join('.');
        if (flagged && (flagged.has(path) || [...flagged].some((f) => path.startsWith(`${f}.`)))) continue;
        const absent = issue.code !== 'custom' && valueAt(input, issue.path) === undefined;
        (errors ??= []).push(locate(path || '(row)', issueMessage(issue, absent)));
      }
    }
    candidate.errors = errors ?? [];
    if (!errors && parsed.success) {
      candidate.payload = parsed.data;
      candidate.locate = locate;
    }
    if (!candidate.clientNumber && typeof order.clientNumber === 'string') candidate.clientNumber = order.clientNumber;
    return candidate;
  }

  /**
   * What the wizard leaves optional, filled as the order form fills it: the place weighs what the order
   * weighs (or the order what its items weigh), the declared value is the items' value, the delivery and
   * pickup types are the tariff's. With the interface's settings these fields always have a column or a default.
   */
  function fillFromParts(order: Record<string, unknown>, cost: Record<string, unknown>, place: Record<string, unknown>, items: Record<string, unknown>[], tariffByDefault: boolean) {
    const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : Number.NaN);
    const qty = (item: Record<string, unknown>) => (item.quantity === undefined ? 1 : num(item.quantity));
    const sumOf = (pick: (item: Record<string, unknown>) => unknown) => {
      const values = items.map((item) => num(pick(item)) * qty(item));
      return values.length > 0 && values.every(Number.isFinite) ? exactSum(values) : undefined;
    };
    if (order.weight === undefined && !fields.get('order.weight')?.spec.required) order.weight = place.weight ?? sumOf((i) => i.weight);
    if (place.weight === undefined && !fields.get('place.weight')?.spec.required) place.weight = order.weight;
    if (cost.assessedCost === undefined && !fields.get('cost.assessedCost')?.spec.required) {
      cost.assessedCost = items.some((i) => i.assessedCost !== undefined || i.cost !== undefined) ? (sumOf((i) => i.assessedCost ?? i.cost ?? 0) ?? undefined) : 0;
    }
    let tariff = tariffById.get(num(order.tariffId));
    // The file's tariff for all rows, on a row that asks for the other delivery (or pickup): the service's tariff that does it.
    if (tariff && tariffByDefault) {
      const wanted = (mine: 1 | 2 | null, row: unknown) => (row === 1 || row === 2 ? row : mine);
      const dt = wanted(tariff.deliveryType, order.deliveryType);
      const pt = wanted(tariff.pickupType, order.pickupType);
      const fits = (t: Tariff) => (t.deliveryType === null || t.deliveryType === dt) && (t.pickupType === null || t.pickupType === pt);
      if (!fits(tariff)) {
        const sibling = settings.tariffs!.find(fits);
        if (sibling) {
          tariff = sibling;
          order.tariffId = sibling.id;
        }
      }
    }
    if (tariff) {
      if (order.deliveryType === undefined && tariff.deliveryType !== null) order.deliveryType = tariff.deliveryType;
      if (order.pickupType === undefined && tariff.pickupType !== null) order.pickupType = tariff.pickupType;
    }
  }

  const finishCurrent = (): OrderCandidate[] => {
    if (!current) return [];
    const done = build(current);
    current = null;
    return [done];
  };

  const duplicate = (clientNumber: string, row: number): RowFieldError | undefined => {
    const earlier = seen.get(clientNumber);
    if (earlier === undefined) {
      seen.set(clientNumber, row);
      return undefined;
    }
    return {
      field: 'order.clientNumber',
      ...said(settings.itemsNewRow ? 'import.numberTwiceApart' : 'import.numberTwice', { number: clientNumber, row: earlier }),
      row,
    };
  };

  return {
    /** Takes the next row of the sheet (rows before rowStart are ignored); returns the orders it completed. */
    push(row: SheetRow): OrderCandidate[] {
      if (row.row < settings.rowStart || (settings.rowEnd !== undefined && row.row > settings.rowEnd)) return [];
      if (isEmptyRow(row)) return [];
      const key = cellText(cellAt(row, clientColumn)).trim();
      const out: OrderCandidate[] = [];
      if (settings.itemsNewRow) {
        if (current && key && key === current.clientNumber) {
          current.rows.push(row);
          return out;
        }
        out.push(...finishCurrent());
        const problem = key
          ? duplicate(key, row.row)
          : { field: 'order.clientNumber', ...at(message('msg.required'), describe({ cell: ref(clientColumn, row.row), raw: null }, true)), row: row.row };
        current = { rows: [row], clientNumber: key, problem };
        return out;
      }
      if (key) {
        out.push(...finishCurrent());
        current = { rows: [row], clientNumber: key, problem: duplicate(key, row.row) };
        return out;
      }
      if (current) {
        current.rows.push(row); // an item row of the order above (or more item rows without one)
        return out;
      }
      current = {
        rows: [row],
        clientNumber: '',
        problem: { field: 'order.clientNumber', ...said('import.itemsWithoutOrder', { where: describe({ cell: ref(clientColumn, row.row), raw: null }, true) }), row: row.row },
      };
      return out;
    },
    /** The last order, once the sheet has ended. */
    finish(): OrderCandidate[] {
      return finishCurrent();
    },
  };
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

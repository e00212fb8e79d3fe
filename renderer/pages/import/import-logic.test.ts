import type { ImportField, ImportPreset } from '../../../shared/contract/import';
import { message, said, type MessageParam } from '../../../shared/messages';
import { createTranslate } from '../../i18n/translate';
import { defaultOptions, fileProblemMessage, isAlreadyImported, matchingPreset, missingRequired, numericColumns, rowErrorMessage, toBase64 } from './import-logic';

const en = createTranslate('en');
const ru = createTranslate('ru');

const preset = (id: number, columnMap: Record<string, string>, headers: { column: string; title: string }[]): ImportPreset => ({
  id,
  name: `P${id}`,
  settings: { providerKey: 'x', columnSettings: { timeFormat: 'H:i', nameFormat: false, itemsNewRow: true }, columnMap, defaultData: {} },
  headers,
  created: '',
  updated: '',
});

describe('the import wizard logic', () => {
  it('offers the newest saved mapping whose columns carry the same titles in the new file', () => {
    const headers = [
      { column: 'A', title: 'Номер заказа' },
      { column: 'B', title: 'Вес,  г' },
      { column: 'C', title: 'Телефон' },
    ];
    const other = preset(1, { 'order.clientNumber': 'A', 'recipient.phone': 'D' }, [{ column: 'A', title: 'Номер заказа' }, { column: 'D', title: 'Телефон' }]);
    const same = preset(2, { 'order.clientNumber': 'A', 'order.weight': 'B' }, [{ column: 'A', title: 'номер заказа' }, { column: 'B', title: 'Вес, г' }]);
    const older = preset(3, { 'order.clientNumber': 'A' }, [{ column: 'A', title: 'Номер заказа' }]);
    expect(matchingPreset([other, same, older], headers)?.id).toBe(2);
    expect(matchingPreset([other], headers)).toBeUndefined();
    expect(matchingPreset([preset(4, {}, [])], headers)).toBeUndefined();
  });

  it('names the required fields nothing fills; an address string stands in for the address parts', () => {
    const fields: ImportField[] = [
      { key: 'order.clientNumber', level: 'order', kind: 'text', required: true },
      { key: 'order.providerKey', level: 'order', kind: 'text', required: true },
      { key: 'cost.codCost', level: 'order', kind: 'number', required: true },
      { key: 'recipient.city', level: 'order', kind: 'text', required: 'address' },
      { key: 'sender.city', level: 'order', kind: 'text', required: 'address' },
      { key: 'order.comment', level: 'order', kind: 'text', required: false },
    ];
    expect(missingRequired(fields, { 'order.clientNumber': 'A', 'recipient.addressString': 'F' }, { 'cost.codCost': ' ' })).toEqual(['cost.codCost', 'sender.city']);
    expect(missingRequired(fields, { 'order.clientNumber': 'A', 'recipient.city': 'G' }, { 'cost.codCost': '0', 'sender.addressString': 'Москва, Тверская 7' })).toEqual([]);
  });

  it('says a refused file\'s reason by the key the core gave it, and nothing for a file without one', () => {
    expect(fileProblemMessage({ key: 'import.problem.encrypted' }, ru)).toMatch(/^Книга защищена паролем/);
    expect(fileProblemMessage({ key: 'import.problem.xls' }, en)).toMatch(/\.xls\) file/);
    expect(fileProblemMessage({ key: 'import.problem.text' }, ru)).toMatch(/^Это текстовый файл/);
    expect(fileProblemMessage({ key: 'import.problem.merged' }, ru)).toMatch(/объединённые ячейки/);
    expect(fileProblemMessage({}, en)).toBeUndefined();
  });

  it('puts a row error into the user\'s language by its key, keeping the cell it points at', () => {
    const cell = message('import.where.cell', { cell: 'B7', value: 'тяжёлый' });
    expect(rowErrorMessage(said('import.at', { reason: message('msg.number'), where: cell }), ru)).toBe('Введите число (ячейка B7: «тяжёлый»)');
    expect(rowErrorMessage(said('import.at', { reason: message('msg.required'), where: message('import.where.cellEmpty', { cell: 'D8' }) }), ru)).toBe('Заполните поле (ячейка D8 пуста)');
    expect(rowErrorMessage({ message: 'must be a phone number' }, en)).toBe(en('msg.phone'));
    expect(rowErrorMessage(said('import.draftExists', { number: 'A-1', draftId: 5 }), ru)).toBe('Черновик с номером A-1 уже есть (черновик 5); эта строка повторно не импортирована');
  });

  it('tells a duplicate of last time\'s order from a real error', () => {
    const dup = { clientNumber: 'A-1', row: 3, code: '040002', message: 'Validation error', description: '', moreInfo: '', errors: [{ field: 'order.clientNumber', ...said('import.orderExists', { number: 'A-1', orderId: 4 }) }] };
    expect(isAlreadyImported(dup, new Set(['A-1']))).toBe(true);
    expect(isAlreadyImported(dup, new Set(['A-2']))).toBe(false);
    expect(isAlreadyImported({ ...dup, errors: [...dup.errors, { field: 'order.weight', message: 'must be a number' }] }, new Set(['A-1']))).toBe(false);
  });

  it('sends a file as base64 unchanged, large ones included', () => {
    const bytes = Uint8Array.from({ length: 200_000 }, (_, i) => (i * 7) % 256);
    expect(Buffer.from(toBase64(bytes), 'base64').equals(Buffer.from(bytes))).toBe(true);
  });
});

describe('the import in shop words', () => {
  it('says the import\'s own refusals in the user\'s language, with the service\'s name and the cell', () => {
    const name = (key: string) => (key === 'sandbox-express' ? 'Песочница Экспресс' : key);
    const at = (reason: MessageParam, cell: string, value: string, from?: string) => {
      const where = message('import.where.cell', { cell, value });
      return said('import.at', { reason, where: from ? message('import.where.parsed', { field: from, where }) : where });
    };
    expect(rowErrorMessage(at(message('import.choice.deliveryType'), 'B5', 'завтра'), ru, name)).toBe('Напишите «до двери» или «ПВЗ» (или 1, 2) (ячейка B5: «завтра»)');
    expect(rowErrorMessage(at(message('rule.noDoorInCity', { name: 'sandbox-express', city: 'Омск' }), 'H7', 'Омск'), ru, name)).toBe('Песочница Экспресс не доставляет до двери в городе Омск (ячейка H7: «Омск»)');
    expect(rowErrorMessage(at(message('rule.noDoorInCity', { name: 'sandbox-express', city: 'Тула' }), 'D6', 'г. Тула', 'recipient.addressString'), ru, name)).toBe(
      'Песочница Экспресс не доставляет до двери в городе Тула (из поля Получатель › Адрес (ячейка D6: «г. Тула»))',
    );
    expect(rowErrorMessage(said('rule.tariffOverWeight', { weight: 60000, id: 103, max: 50000 }), en, name)).toBe('60000 g is over the limit of tariff 103 (50000 g)');
    expect(rowErrorMessage(at(message('import.tariff', { service: 'sandbox-express', names: '"Экспресс дверь-дверь"' }), 'C2', 'x'), en, name)).toBe(
      'Not a tariff of Песочница Экспресс; its tariffs: "Экспресс дверь-дверь" (or its number) (cell C2: “x”)',
    );
  });

  it('offers defaults as named choices, tariffs by name and sums of a column instead of formulas', () => {
    const context = { columns: [{ value: 'K', label: 'K — Сумма' }], tariffs: [{ id: 103, name: 'Экспресс дверь-дверь' }], current: '' };
    expect(defaultOptions('order.deliveryType', context, ru)).toEqual([{ value: '1', label: 'До двери' }, { value: '2', label: 'В пункт выдачи' }]);
    expect(defaultOptions('order.pickupType', context, ru)?.map((o) => o.label)).toEqual(['Заберёт курьер', 'Сдам в отделение']);
    expect(defaultOptions('order.tariffId', context, ru)).toEqual([{ value: '103', label: 'Экспресс дверь-дверь' }]);
    expect(defaultOptions('cost.codCost', context, ru)).toEqual([{ value: '0', label: '0 — заказ оплачен' }, { value: 'sumByOrderRows(K)', label: 'Сумма столбца K — Сумма по строкам заказа' }]);
    expect(defaultOptions('cost.codCost', { ...context, current: '150' }, ru)?.at(-1)).toEqual({ value: '150', label: '150 (как сохранено)' });
    expect(defaultOptions('recipient.comment', context, ru)).toBeUndefined();
  });

  it('offers sums only of the columns of numbers (#15: "Сумма столбца B — Получатель" was offered for the COD)', () => {
    const rows = [
      { row: 1, cells: { A: 'Номер заказа', B: 'Получатель', C: 'Цена', D: 'Дата', E: 'Телефон' } },
      { row: 2, cells: { A: 'W-1', B: 'Анна Семёнова', C: '990.5', D: '2026-11-27', E: '+7 (916) 100-45-67' }, dates: { D: '2026-11-27' } },
      { row: 3, cells: { A: 'W-1', B: '', C: '1 500,00', D: '2026-11-27', E: '' }, dates: { D: '2026-11-27' } },
    ];
    const numeric = numericColumns(rows, 2);
    expect([...numeric]).toEqual(['C']);
    const columns = ['A — Номер заказа', 'B — Получатель', 'C — Цена', 'D — Дата', 'E — Телефон'].map((label) => ({ value: label[0], label }));
    expect(defaultOptions('cost.codCost', { columns, tariffs: [], current: '', numeric }, ru)?.map((o) => o.label)).toEqual([
      '0 — заказ оплачен',
      'Сумма столбца C — Цена по строкам заказа',
    ]);
    // the title row is not data: a column of numbers under a text title is still one
    expect([...numericColumns(rows, 1)]).toEqual([]);
  });
});

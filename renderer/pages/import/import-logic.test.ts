import type { ImportField, ImportPreset } from '../../../shared/contract/import';
import { createTranslate } from '../../i18n/translate';
import { fileProblemMessage, isAlreadyImported, matchingPreset, missingRequired, rowErrorMessage, toBase64 } from './import-logic';

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

  it('translates the core\'s reasons for refusing a file, and leaves an unknown one alone', () => {
    expect(fileProblemMessage('The workbook is protected with a password. Open it in Excel…', ru)).toMatch(/^Книга защищена паролем/);
    expect(fileProblemMessage('This is an old Excel 97–2003 (.xls) file.', en)).toMatch(/\.xls\) file/);
    expect(fileProblemMessage('The file is text (CSV, HTML or similar), not an xlsx workbook.', ru)).toMatch(/^Это текстовый файл/);
    expect(fileProblemMessage('Merged cells in the table (B5:B6): …', ru)).toMatch(/объединённые ячейки/);
    expect(fileProblemMessage('Something new', en)).toBeUndefined();
  });

  it('puts a row error into the user\'s language, keeping the cell it points at', () => {
    expect(rowErrorMessage('must be a number (cell B7: "тяжёлый")', ru)).toBe(`${ru('msg.number')} (ячейка B7: "тяжёлый")`);
    expect(rowErrorMessage('must be a phone number', en)).toBe(en('msg.phone'));
    expect(rowErrorMessage('a draft with clientNumber A-1 already exists (draft d-x); this row was not imported again', ru)).toBe('Черновик с таким номером уже есть');
  });

  it('tells a duplicate of last time\'s order from a real error', () => {
    const dup = { clientNumber: 'A-1', row: 3, code: '040002', message: 'Validation error', description: '', moreInfo: '', errors: [{ field: 'order.clientNumber', message: 'an order with clientNumber A-1 already exists (orderId 4); …' }] };
    expect(isAlreadyImported(dup, new Set(['A-1']))).toBe(true);
    expect(isAlreadyImported(dup, new Set(['A-2']))).toBe(false);
    expect(isAlreadyImported({ ...dup, errors: [...dup.errors, { field: 'order.weight', message: 'must be a number' }] }, new Set(['A-1']))).toBe(false);
  });

  it('sends a file as base64 unchanged, large ones included', () => {
    const bytes = Uint8Array.from({ length: 200_000 }, (_, i) => (i * 7) % 256);
    expect(Buffer.from(toBase64(bytes), 'base64').equals(Buffer.from(bytes))).toBe(true);
  });
});

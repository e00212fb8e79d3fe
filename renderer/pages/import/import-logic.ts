import type { ImportField, ImportPreset } from '../../../shared/contract/import';
import type { UploadFailedItem, UploadResultItem } from '../../../shared/schemas/upload';
import type { ErrorBody } from '../../../shared/errors';
import { fieldMessage, messageByKey, type Said } from '../../i18n/error-messages';
import type { MessageKey, Translate } from '../../i18n/types';

/** A refused file's reason in the user's language, by the key the core gave it; undefined when it gave none. */
export const fileProblemMessage = (error: Pick<ErrorBody, 'key' | 'params'>, t: Translate): string | undefined =>
  error.key ? messageByKey({ key: error.key, params: error.params }, t) : undefined;

/** A row error in the user's language, by its key (the cell it came from included); `service` names a service by its key. */
export const rowErrorMessage = (error: Said, t: Translate, service?: (key: string) => string): string => fieldMessage(error, t, { service });

const norm = (s: string) => s.toLowerCase().replace(/ё/g, 'е').replace(/\s+/g, ' ').trim();

/** The columns a column map uses: `"B,C,D"` (a name in parts) counts each. */
export function mappedColumns(columnMap: Readonly<Record<string, string>>): string[] {
  return [...new Set(Object.values(columnMap).flatMap((v) => v.split(',').map((c) => c.trim()).filter(Boolean)))];
}

/**
 * The saved mapping made for a file like this one: every column its map uses has the same title here as
 * when it was saved. The most recently saved wins (the list comes last saved first).
 */
export function matchingPreset(presets: readonly ImportPreset[], headers: readonly { column: string; title: string }[]): ImportPreset | undefined {
  const titles = new Map(headers.map((h) => [h.column, norm(h.title)]));
  return presets.find((p) => {
    const saved = new Map(p.headers.map((h) => [h.column, norm(h.title)]));
    const used = mappedColumns(p.settings.columnMap);
    return used.length > 0 && used.every((c) => saved.has(c) && saved.get(c) === titles.get(c));
  });
}

const addressParts = ['countryCode', 'region', 'city', 'street', 'house'];

/**
 * Required fields given neither by a column nor by a default. order.providerKey is given by the wizard's
 * delivery service; a party's address parts are given by its address string.
 */
export function missingRequired(fields: readonly ImportField[], columnMap: Readonly<Record<string, string>>, defaults: Readonly<Record<string, string>>): string[] {
  const given = (key: string) => Boolean(columnMap[key]?.trim() || defaults[key]?.trim());
  return fields
    .filter((f) => {
      if (!f.required || f.key === 'order.providerKey' || given(f.key)) return false;
      if (f.required === 'address') {
        const party = f.key.split('.')[0];
        return !given(`${party}.addressString`) && addressParts.includes(f.key.split('.')[1]);
      }
      return true;
    })
    .map((f) => f.key);
}

/** Only what the user set: empty selects and defaults are left out of the settings sent. */
export function compact(record: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v.trim() !== ''));
}

export const isFailed = (item: UploadResultItem): item is UploadFailedItem => 'code' in item;

/**
 * A failure that only says the order already exists from the last import (re-importing the failed rows:
 * the orders made last time come back as duplicates, by design of the core).
 */
export function isAlreadyImported(item: UploadResultItem, createdBefore: ReadonlySet<string>): boolean {
  return (
    isFailed(item) &&
    createdBefore.has(item.clientNumber) &&
    item.errors.length > 0 &&
    item.errors.every((e) => 'key' in e && e.key === 'import.orderExists')
  );
}

/** Bytes → base64 in chunks (a spread of a large array would overflow the call stack). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

/** "1.4 MB" / "820 KB" for a file size. */
export function fileSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** A choice in the Default column: the value the settings carry and what the shop reads. */
export interface DefaultOption {
  value: string;
  label: string;
}

/** A cell that reads as a number ("990.5", "1 500,00", "-3"): what a sum over the order's rows can add up. */
const numberLike = (text: string) => /^-?\d+(?:[.,]\d+)?$/.test(text.replace(/[\s\u00a0\u202f]/g, ''));

/**
 * The columns worth summing: those whose data cells in the preview (below the title row, dates aside) are
 * numbers, at least one of them filled; names, phones, addresses and dates are not offered as sums.
 */
export function numericColumns(rows: readonly { row: number; cells: Record<string, string>; dates?: Record<string, string> }[], firstDataRow: number): Set<string> {
  const numeric = new Set<string>();
  const not = new Set<string>();
  for (const r of rows) {
    if (r.row < firstDataRow) continue;
    for (const [column, text] of Object.entries(r.cells)) {
      if (text.trim() === '') continue;
      if (!r.dates?.[column] && numberLike(text)) numeric.add(column);
      else not.add(column);
    }
  }
  for (const column of not) numeric.delete(column);
  return numeric;
}

/** Where a sum over the order's rows makes sense (the core allows it for any order-level number). */
const summable = (key: string) => key === 'order.weight' || key.startsWith('cost.');

/**
 * The plain-language defaults a field offers instead of a typed value: named choices for the delivery
 * and pickup types, the service's tariffs by name, "0 — paid in advance" and sums of a column over the
 * order's rows for money and weight; undefined for a field that takes any text. A value saved earlier that
 * is none of them stays offered as it is.
 */
export function defaultOptions(
  key: string,
  context: {
    columns: readonly { value: string; label: string }[];
    tariffs: readonly { id: number; name: string }[];
    current: string;
    /** The columns of numbers (numericColumns): only they are offered as sums; all columns when absent. */
    numeric?: ReadonlySet<string>;
  },
  t: Translate,
): DefaultOption[] | undefined {
  let options: DefaultOption[] | undefined;
  if (key === 'order.deliveryType' || key === 'order.pickupType') {
    options = (['1', '2'] as const).map((code) => ({ value: code, label: t(`import.choice.${key}.${code}`) }));
  } else if (key === 'order.tariffId') {
    options = context.tariffs.map((tariff) => ({ value: String(tariff.id), label: tariff.name }));
  } else if (summable(key)) {
    options = [
      { value: '0', label: key === 'cost.codCost' ? t('import.default.prepaid') : t('import.default.zero') },
      ...context.columns
        .filter((c) => !context.numeric || context.numeric.has(c.value))
        .map((c) => ({ value: `sumByOrderRows(${c.value})`, label: t('import.default.sum', { column: c.label }) })),
    ];
  } else if (key === 'item.quantity') {
    options = [{ value: '1', label: t('import.default.one') }];
  }
  const current = context.current.trim();
  if (options && current && !options.some((o) => o.value === current)) options = [...options, { value: current, label: t('import.default.custom', { value: current }) }];
  return options;
}

/** The date and time formats a file may type its dates in (PHP date() tokens behind plain examples). */
export const dateFormats = [
  ['d.m.Y', 'import.format.date.dmY'],
  ['Y-m-d', 'import.format.date.Ymd'],
  ['d/m/Y', 'import.format.date.dmYslash'],
  ['m/d/Y', 'import.format.date.mdYslash'],
  ['d.m.y', 'import.format.date.dmy'],
] as const satisfies ReadonlyArray<readonly [string, MessageKey]>;
export const timeFormats = [
  ['H:i', 'import.format.time.Hi'],
  ['H:i:s', 'import.format.time.His'],
] as const satisfies ReadonlyArray<readonly [string, MessageKey]>;

/** The field groups of the mapping step, in the order a shop reads an order. */
export const fieldGroups = ['order', 'cost', 'recipient', 'sender', 'place', 'item'] as const;
export type FieldGroup = (typeof fieldGroups)[number];
export const groupOf = (key: string): FieldGroup | 'extraParams' => key.split('.')[0] as FieldGroup;

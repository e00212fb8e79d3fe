import type { ImportField, ImportPreset } from '../../../shared/contract/import';
import type { UploadFailedItem, UploadResultItem } from '../../../shared/schemas/upload';
import { fieldMessage } from '../../i18n/error-messages';
import type { MessageKey, Translate } from '../../i18n/types';

/** Largest workbook the core reads (import file-check limit). */
export const coreMaxFileBytes = 30 * 1024 * 1024;
/** Browser mode sends the file as base64 in a JSON command body of at most 32 MiB. */
export const httpMaxFileBytes = Math.floor(((32 * 1024 * 1024 - 4096) * 3) / 4);

/** The core's reasons for refusing a file (English, from the import's file checks) → our messages. */
const problemPatterns: ReadonlyArray<readonly [RegExp, MessageKey]> = [
  [/password|encrypted/i, 'import.problem.encrypted'],
  [/97–2003|\.xls\)/i, 'import.problem.xls'],
  [/file is text/i, 'import.problem.text'],
  [/merged cells/i, 'import.problem.merged'],
  [/no orders found/i, 'import.problem.noRows'],
  [/more than [\d,]+ rows/i, 'import.problem.tooManyRows'],
  [/largest workbook|larger than|more than \d+ MB of memory/i, 'import.problem.tooLarge'],
  [/unpacks to|parts; a workbook/i, 'import.problem.bomb'],
  [/is a chart/i, 'import.problem.chart'],
  [/no sheets|empty archive|could not be found in the file|has no data in the file|is missing from the file/i, 'import.problem.noSheet'],
  [/not an xlsx|not an excel workbook/i, 'import.problem.notXlsx'],
  [/cannot be read|took longer|unusual way/i, 'import.problem.unreadable'],
];

/** A refused file's reason in the user's language; undefined when the core's text is not one we know. */
export function fileProblemMessage(description: string | undefined, t: Translate): string | undefined {
  if (!description) return undefined;
  const hit = problemPatterns.find(([re]) => re.test(description));
  return hit ? (t as (k: MessageKey) => string)(hit[1]) : undefined;
}

/** A row error as the core writes it (`must be a number (cell B5: "abc")`) in the user's language. */
export function rowErrorMessage(message: string, t: Translate): string {
  if (/^a draft with clientNumber .* already exists/.test(message)) return t('import.error.draftExists');
  const m = message.match(/^(.*?)\s*\(cell ([A-Z]{1,3}\d+)(.*)\)$/s);
  if (!m) return fieldMessage(message, t);
  return `${fieldMessage(m[1], t)} (${t('import.cell', { cell: m[2] })}${m[3]})`;
}

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
    item.errors.every((e) => e.field === 'order.clientNumber' && /already exists/.test(e.message))
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

/** The field groups of the mapping step, in the order a shop reads an order. */
export const fieldGroups = ['order', 'cost', 'recipient', 'sender', 'place', 'item'] as const;
export type FieldGroup = (typeof fieldGroups)[number];
export const groupOf = (key: string): FieldGroup | 'extraParams' => key.split('.')[0] as FieldGroup;

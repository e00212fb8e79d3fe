import { ErrorCode } from '../../../shared/errors';
import { AppError } from '../errors';

/** `fields=id,providerKey,name`: the record fields a caller wants. Pure. */

export const unknownField = (names: string[], known: readonly string[]) =>
  new AppError(400, {
    code: ErrorCode.unknownField,
    message: 'Unknown field',
    description: `No such field: ${names.join(', ')}; the records have ${known.join(', ')}`,
    errors: names.map((name) => ({ field: 'fields', message: `${name} is not a field of the records` })),
  });

/** The requested fields in record order, or null for all. Blank parts are skipped; an unknown name is 040012. */
export function parseFields(input: string | null | undefined, known: readonly string[]): string[] | null {
  if (input === null || input === undefined || input.trim() === '') return null;
  const wanted = new Set(input.split(',').map((s) => s.trim()).filter(Boolean));
  if (wanted.size === 0) return null;
  const unknown = [...wanted].filter((name) => !known.includes(name));
  if (unknown.length) throw unknownField(unknown, known);
  return known.filter((name) => wanted.has(name));
}

/** Keeps only the given fields of each record (all when `fields` is null). */
export function project<T extends object>(records: T[], fields: string[] | null): Partial<T>[] {
  if (!fields) return records;
  return records.map((record) => {
    const out: Record<string, unknown> = {};
    for (const f of fields) out[f] = (record as Record<string, unknown>)[f];
    return out as Partial<T>;
  });
}

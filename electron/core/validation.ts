import type { z } from 'zod';
import { fieldErrors, validationError } from './errors';

/** How deep input may nest (an order is 6 levels, 12 as XML with its `item` lists); deeper is refused before any walk. */
export const MAX_INPUT_DEPTH = 32;
/**
 * Strings longer than this are not scanned for lone surrogates: no text field takes so much (their schemas
 * refuse them by length), and the long ones (file.base64) are checked by their own alphabet.
 */
const SCANNED_STRING_LENGTH = 64 * 1024;

/**
 * Refuses input no schema should see: nesting deeper than MAX_INPUT_DEPTH (a 100,000-deep object would
 * overflow the stack of every recursive walk, zod's included) and text with lone UTF-16 surrogates (JSON
 * `"\uD800"`) or NUL characters (`"\u0000"`: PostgreSQL's text and jsonb refuse it), which no database, XML answer
 * or delivery service can carry. Iterative: any depth is safe.
 */
export function checkInputShape(raw: unknown): void {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: raw, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.length <= SCANNED_STRING_LENGTH && !wellFormed(value)) throw shapeError(path, 'must be valid text (it has a lone UTF-16 surrogate)');
      if (value.length <= SCANNED_STRING_LENGTH && value.includes('\u0000')) throw shapeError(path, 'must be valid text (it has a NUL character, \\u0000)');
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (path.length >= MAX_INPUT_DEPTH) throw nestingError(path);
    for (const [key, entry] of Object.entries(value)) {
      if (!wellFormed(key)) throw shapeError(path, 'has a field name with a lone UTF-16 surrogate');
      if (key.includes('\u0000')) throw shapeError(path, 'has a field name with a NUL character (\\u0000)');
      stack.push({ value: entry, path: [...path, Array.isArray(value) ? Number(key) : key] });
    }
  }
}

// String.prototype.isWellFormed (Node 20) is newer than the TypeScript lib the project targets.
const wellFormed = (text: string) => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

const shapeError = (path: (string | number)[], message: string) => {
  const field = path.slice(0, 8).join('.') + (path.length > 8 ? '…' : '') || '(body)';
  return validationError([{ field, message }]);
};

/** The refusal of input nested deeper than MAX_INPUT_DEPTH, at `path` (the body itself when unknown). */
export const nestingError = (path: (string | number)[]) => shapeError(path, `is nested deeper than ${MAX_INPUT_DEPTH} levels`);

/**
 * Parses input from outside with its schema; bad input becomes a 040002 error body that names each field. `quick`, when
 * given, is tried first (after the shape check): a cheaper way to the schema's very output for the inputs it knows,
 * undefined for anything else, which the schema then judges (so the errors stay the schema's).
 */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown, quick?: (raw: unknown) => z.output<S> | undefined): z.output<S> {
  checkInputShape(raw);
  const fast = quick?.(raw);
  if (fast !== undefined) return fast;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw validationError(fieldErrors(parsed.error, raw));
  return parsed.data;
}

import type { z } from 'zod';
import { fieldErrors, validationError } from './errors';

/** Parses input from outside with its schema; bad input becomes a 040002 error body that names each field. */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw validationError(fieldErrors(parsed.error, raw));
  return parsed.data;
}

import type { z } from 'zod';
import type { Access } from '../roles';

/** One command of the table: its input and output schemas and who may call it. Types are inferred from them, never written twice. */
export interface CommandSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType, A extends Access = Access> {
  input: I;
  output: O;
  /** Shown in the generated reference. */
  summary: string;
  /** The roles that may call it (checked by every transport before dispatch), or 'public' (signing in). */
  roles: A;
  /** Largest request body in bytes over the browser-mode transport (`POST /app/commands/<name>`); default DEFAULT_COMMAND_BODY_LIMIT. */
  bodyLimit?: number;
}

/** A command's body unless it declares otherwise: 1 MiB. */
export const DEFAULT_COMMAND_BODY_LIMIT = 1024 * 1024;
/** What `bytes` of a file take as base64 in a body. */
export const base64Size = (bytes: number) => Math.ceil(bytes / 3) * 4;

/** Declares a command; `roles` is required, so a command nobody thought about cannot exist. `bodyLimit` only where 1 MiB is not enough. */
export const command = <I extends z.ZodType, O extends z.ZodType, const A extends Access>(
  summary: string,
  input: I,
  output: O,
  roles: A,
  bodyLimit?: number,
): CommandSpec<I, O, A> => ({ summary, input, output, roles, ...(bodyLimit !== undefined && { bodyLimit }) });

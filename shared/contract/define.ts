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
}

/** Declares a command; `roles` is required, so a command nobody thought about cannot exist. */
export const command = <I extends z.ZodType, O extends z.ZodType, const A extends Access>(
  summary: string,
  input: I,
  output: O,
  roles: A,
): CommandSpec<I, O, A> => ({ summary, input, output, roles });

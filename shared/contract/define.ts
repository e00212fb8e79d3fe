import type { z } from 'zod';

/** One command of the table: its input and output schemas. Types are inferred from them, never written twice. */
export interface CommandSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I;
  output: O;
  /** Shown in the generated reference. */
  summary: string;
}

export const command = <I extends z.ZodType, O extends z.ZodType>(summary: string, input: I, output: O): CommandSpec<I, O> => ({
  summary,
  input,
  output,
});

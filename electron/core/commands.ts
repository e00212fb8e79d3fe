import type { z } from 'zod';
import { contract, isCommandName, type CommandName, type CommandOutput, type Contract } from '../../shared/contract';
import { ErrorCode } from '../../shared/errors';
import type { Result } from '../../shared/result';
import type { CallContext } from './companies/company-service';
import { AppError, internalError } from './errors';
import type { Logger } from './logger';
import { parseInput } from './validation';

export type CommandHandler<N extends CommandName> = (ctx: CallContext, input: z.output<Contract[N]['input']>) => Promise<CommandOutput<N>>;

/** One async function per command: the table every caller (IPC, browser-mode HTTP, tests) goes through. */
export type CommandTable = { [N in CommandName]: CommandHandler<N> };

/** Turns any thrown error into the interface's error body; unexpected ones are logged and hidden. */
export function toErrorResult(error: unknown, log: Logger): { status: number; body: Result<never> & { ok: false } } {
  if (error instanceof AppError) return { status: error.status, body: { ok: false, error: error.body } };
  log.error('unexpected error in a command', error);
  const internal = internalError();
  return { status: internal.status, body: { ok: false, error: internal.body } };
}

/** Parses the input with the command's schema, runs it and wraps the outcome as a Result. */
export async function dispatch(table: CommandTable, log: Logger, name: string, ctx: CallContext, input: unknown): Promise<Result<unknown>> {
  if (!isCommandName(name)) {
    return { ok: false, error: { code: ErrorCode.notFound, message: 'Unknown command', description: `There is no command ${String(name)}` } };
  }
  try {
    const parsed = parseInput(contract[name].input, input ?? {});
    const handler = table[name] as (ctx: CallContext, input: unknown) => Promise<unknown>;
    return { ok: true, value: await handler(ctx, parsed) };
  } catch (error) {
    return toErrorResult(error, log.child({ companyId: ctx.companyId })).body;
  }
}

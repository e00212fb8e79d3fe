import type { z } from 'zod';
import { said } from '../../shared/messages';
import { contract, isCommandName, type CommandName, type CommandOutput, type Contract } from '../../shared/contract';
import { ErrorCode } from '../../shared/errors';
import type { Result } from '../../shared/result';
import { allows, type Access } from '../../shared/roles';
import type { Caller, Visitor } from './auth/caller';
import { AppError, forbidden, notFound, unauthorized, unexpectedError } from './errors';
import type { Logger } from './logger';
import { parseInput } from './validation';

/** Who a handler is called for: anyone for a public command (signing in), a known caller for the rest. */
type CallerOf<N extends CommandName> = Contract[N]['roles'] extends 'public' ? Visitor : Caller;

export type CommandHandler<N extends CommandName> = (ctx: CallerOf<N>, input: z.output<Contract[N]['input']>) => Promise<CommandOutput<N>>;

/** One async function per command: the table every caller (IPC, browser-mode HTTP, tests) goes through. */
export type CommandTable = { [N in CommandName]: CommandHandler<N> };

/** Turns any thrown error into the interface's error body; unexpected ones are logged and hidden. */
export function toErrorResult(error: unknown, log: Logger): { status: number; body: Result<never> & { ok: false } } {
  if (error instanceof AppError) return { status: error.status, body: { ok: false, error: error.body } };
  log.error('unexpected error in a command', error);
  const unexpected = unexpectedError(error);
  return { status: unexpected.status, body: { ok: false, error: unexpected.body } };
}

/**
 * The one gate of every transport: may this caller use what `access` guards? Throws the refusal: 401
 * without a session, 403 for a role that is not let in (an API token, a packer at an owner's command).
 */
export function authorizeAccess(access: Access, who: Visitor, what: string): void {
  if (allows(access, who.role)) return;
  if (who.role === null) throw unauthorized('Sign in first: this needs a session');
  throw forbidden(who.role === 'client' ? 'An API token reaches the delivery interface (/v1) only' : `${what} is for the shop's owner only`);
}

/** The command by name, if the caller's role may call it (the roles each command declares in shared/contract). */
export function authorize(name: string, who: Visitor): CommandName {
  if (!isCommandName(name)) throw notFound(said('notFound.command', { name: String(name) }));
  authorizeAccess(contract[name].roles, who, name);
  return name;
}

/** HTTP status of a refusal by `authorize` or by signing in; other failed Results travel as 200. */
export const refusalStatus: Partial<Record<string, number>> = {
  [ErrorCode.unauthorized]: 401,
  [ErrorCode.forbidden]: 403,
  [ErrorCode.tooManyAttempts]: 429,
};

/** Checks the caller, parses the input with the command's schema, runs it and wraps the outcome as a Result. */
export async function dispatch(table: CommandTable, log: Logger, name: string, who: Visitor, input: unknown): Promise<Result<unknown>> {
  try {
    const allowed = authorize(name, who);
    const parsed = parseInput(contract[allowed].input, input ?? {});
    const handler = table[allowed] as (ctx: Visitor, input: unknown) => Promise<unknown>;
    return { ok: true, value: await handler(who, parsed) };
  } catch (error) {
    return toErrorResult(error, 'companyId' in who ? log.child({ companyId: who.companyId }) : log).body;
  }
}

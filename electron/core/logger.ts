/**
 * Extra facts on one log line (serialised as JSON; secrets are redacted by the file log). `fileOnly: true` keeps a
 * warning in the log file without echoing it to the terminal (logging/file-log.ts).
 */
export type LogFields = Record<string, unknown>;

/** Whose work a child logger's lines are about: support filters a day's log by these. */
export interface LogContext {
  companyId?: string | number;
  orderId?: string | number;
  importId?: string | number;
  /** The delivery service (provider key) a call went to. */
  service?: string;
}

/** The log calls the core makes; `createFileLog` (logging/file-log.ts) writes them as JSON lines in the data folder. */
export interface Logger {
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, error?: unknown, fields?: LogFields): void;
  /** A logger whose every line carries `context` besides this one's. */
  child(context: LogContext): Logger;
}

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {}, child: () => silentLogger };

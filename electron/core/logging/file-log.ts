import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pino, { type DestinationStream, type Logger as Pino } from 'pino';
import build from 'pino-roll';
import type { LogContext, LogFields, Logger } from '../logger';
import { redactSecrets } from './redact';

/** One log file grows to this before the next one starts (and a new one starts each day). */
export const LOG_FILE_MAX_SIZE = '5m';
/** Rotated files kept beside the current one: with LOG_FILE_MAX_SIZE the logs never take more than ~55 MB. */
export const LOG_FILES_KEPT = 10;
/** The name files get: `shipdesk.<date>.<n>.log` in `<data>/logs/`. */
const LOG_FILE_STEM = 'shipdesk';

/** Where the log files are: `<data>/logs`. */
export const logsDir = (dataDir: string) => join(dataDir, 'logs');

export interface FileLog {
  log: Logger;
  /**
   * Resolves once every line logged so far is in the file (written and fsynced), e.g. before the files are zipped
   * for support. Lines are written as they come, never held back; this waits for the writes still under way.
   */
  flush(): Promise<void>;
  /** Writes what is buffered and closes the file. */
  close(): Promise<void>;
}

/**
 * The echo of warnings and errors, without the lines marked `fileOnly: true` (LogFields): those are for support's
 * file, not the terminal (a webhook's failed attempt that will be tried again: a dead site would fill it).
 */
const echoing = (echo: NodeJS.WritableStream) => ({
  write(line: string) {
    if (!line.includes('"fileOnly":true')) echo.write(line); // a value's own quotes are escaped in JSON: only the field matches
  },
});

/**
 * JSON lines in `<data>/logs/`, rotated daily and by size, the oldest removed. Where the folder cannot be
 * written (a read-only or vanished data folder) the lines go to stderr instead: a log must never stop the app.
 * `echo` also sends warnings and errors to a stream (browser mode: the terminal), except the lines marked `fileOnly`.
 */
export async function createFileLog(
  dataDir: string,
  options: { echo?: NodeJS.WritableStream; level?: string; maxFileSize?: string; filesKept?: number } = {},
): Promise<FileLog> {
  let file: Awaited<ReturnType<typeof build>> | null = null;
  try {
    mkdirSync(logsDir(dataDir), { recursive: true });
    file = await build({
      file: join(logsDir(dataDir), LOG_FILE_STEM),
      extension: '.log',
      frequency: 'daily',
      dateFormat: 'yyyy-MM-dd',
      size: options.maxFileSize ?? LOG_FILE_MAX_SIZE,
      limit: { count: options.filesKept ?? LOG_FILES_KEPT, removeOtherLogFiles: true },
      mkdir: true,
      // SonicBoom's flush(cb) calls back at once when minLength is 0, before the writes under way land; with 1 it
      // waits for them (and fsyncs). A line is never shorter than 1 byte, so each is still written as it comes.
      minLength: 1,
    });
    // A disk that fills up later must not throw out of a write: the line is lost, the app goes on.
    file.on('error', () => {});
  } catch (error) {
    process.stderr.write(`ShipDesk: the log folder ${logsDir(dataDir)} cannot be written (${(error as Error).message}); logging to stderr\n`);
  }
  const streams: pino.StreamEntry[] = [{ stream: file ?? process.stderr, level: 'info' }];
  if (options.echo && file) streams.push({ stream: echoing(options.echo), level: 'warn' });
  const root = pino(
    {
      level: options.level ?? 'info',
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }), log: (fields) => redactSecrets(fields) as Record<string, unknown> },
    },
    pino.multistream(streams) as DestinationStream,
  );
  return {
    log: fromPino(root),
    flush: () =>
      new Promise<void>((resolve) => {
        if (!file || file.destroyed) return resolve();
        file.flush(() => resolve()); // an error (a full disk) loses lines, never the caller's work
      }),
    close: () =>
      new Promise<void>((resolve) => {
        if (!file) return resolve();
        file.once('close', () => resolve());
        file.once('error', () => resolve());
        file.end();
      }),
  };
}

/** Our Logger over a pino logger: `error(message, err)` keeps the error's stack under `err`. */
export function fromPino(logger: Pino): Logger {
  return {
    info: (message: string, fields?: LogFields) => logger.info(fields ?? {}, message),
    warn: (message: string, fields?: LogFields) => logger.warn(fields ?? {}, message),
    error: (message: string, error?: unknown, fields?: LogFields) =>
      logger.error({ ...fields, ...(error === undefined ? {} : { err: error instanceof Error ? error : { message: String(error) } }) }, message),
    child: (context: LogContext) => fromPino(logger.child(context)),
  };
}

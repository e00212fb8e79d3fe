import { availableParallelism } from 'node:os';
import { contract } from '../../../shared/contract';
import { DEFAULT_COMMAND_BODY_LIMIT } from '../../../shared/contract/define';

/**
 * The limits of request bodies, one home for each; the OpenAPI reference quotes them (operations.ts, "Limits").
 * Crossing one is a 4xx with the interface's error body, never a 500 or a stalled server.
 */

/** Bytes in MiB to one decimal, as the 413 message and the OpenAPI reference say a limit. */
export const mibOf = (bytes: number): number => Math.round((bytes / 2 ** 20) * 10) / 10;

/** An operation's body unless the route says otherwise (413 past it). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** POST /orders/upload: base64 of the largest workbook accepted (30 MB) plus the settings, in JSON or XML. */
export const UPLOAD_BODY_LIMIT = 48 * 1024 * 1024;
/**
 * POST /app/commands/<name> (the browser-mode window): what the command declares beside its roles (shared/contract:
 * import.preview the largest workbook as base64, backup.upload one part, orders.exportXlsx 100,000 ids), else
 * DEFAULT_COMMAND_BODY_LIMIT; an unknown name gets the default (and is refused as unknown once read).
 */
export function commandBodyLimit(name: string): number {
  const spec = Object.hasOwn(contract, name) ? (contract as Record<string, { bodyLimit?: number }>)[name] : undefined;
  return spec?.bodyLimit ?? DEFAULT_COMMAND_BODY_LIMIT;
}

/**
 * The base64 file field of a command's input that import/incoming-file.ts decodeBase64 reads (Route.bodyFile):
 * the wizard's workbook (import.preview). Over IPC the text reaches the main thread as it is.
 */
export const commandBodyFile = (name: string): string | undefined => (name === 'import.preview' ? 'file.base64' : undefined);

/** The commands that declare a limit of their own, by name (the reference lists them). */
export const commandBodyLimits = (): [string, number][] =>
  Object.entries(contract as Record<string, { bodyLimit?: number }>).flatMap(([name, spec]) => (spec.bodyLimit === undefined ? [] : [[name, spec.bodyLimit] as [string, number]]));
/**
 * Bodies up to this are parsed where they arrive (well under a millisecond); larger ones in the body-parsing
 * threads, so a 40 MB XML document never holds up the other callers.
 */
export const INLINE_PARSE_LIMIT = 64 * 1024;
/**
 * A route's base64 file field (Route.bodyFile) at least this long is decoded in the body-parsing thread and
 * handed over as bytes: the main thread never holds its text (api/body-parser.ts, held-bytes.ts).
 */
export const HELD_FILE_CHARS = 1024 * 1024;
/**
 * Threads parsing large bodies at once; more large bodies wait their turn (each waits, nobody else does). One core is
 * left to the main thread: on a 2-core PC two threads made the main thread wait its turn for the CPU (bench bodies,
 * quiet, three 40 MB uploads: the worst wait of another caller 144, 65, 55 ms with two threads; 50, 55, 49 ms with one).
 */
export const BODY_PARSE_THREADS = Math.max(1, Math.min(2, availableParallelism() - 1));

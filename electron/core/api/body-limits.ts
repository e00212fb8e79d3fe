import { maxWorkbookBytes } from '../../../shared/contract/import';

/**
 * The limits of request bodies, one home for each; the OpenAPI reference quotes them (operations.ts, "Limits").
 * Crossing one is a 4xx with the interface's error body, never a 500 or a stalled server.
 */

/** An operation's body unless the route says otherwise (413 past it). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** POST /orders/upload: base64 of the largest workbook accepted (30 MB) plus the settings, in JSON or XML. */
export const UPLOAD_BODY_LIMIT = 48 * 1024 * 1024;
/**
 * POST /app/commands/<name> (the browser-mode window): an import preview carries the workbook as base64, so the
 * largest one the import takes (30 MB, as in the desktop window) fits, with an ordinary body's room for the rest.
 */
export const COMMAND_BODY_LIMIT = Math.ceil(maxWorkbookBytes / 3) * 4 + DEFAULT_BODY_LIMIT;
/**
 * Bodies up to this are parsed where they arrive (well under a millisecond); larger ones in the body-parsing
 * threads, so a 40 MB XML document never holds up the other callers.
 */
export const INLINE_PARSE_LIMIT = 64 * 1024;
/** Threads parsing large bodies at once; more large bodies wait their turn (each waits, nobody else does). */
export const BODY_PARSE_THREADS = 2;

import type { ErrorBody } from './errors';

/** What crosses every transport (IPC, HTTP command transport): a value or an interface error body. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorBody };

import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock';

/** A made file (labels, acts) as it is handed out. */
export interface PrintedFile {
  bytes: Uint8Array;
  fileName: string;
  contentType: string;
}

interface Stored extends PrintedFile {
  companyId: number;
  expiresAt: number;
}

export interface FileLinkOptions {
  /** How long a link works; integrations open it at once. */
  ttlMs: number;
  /** Most bytes kept at once; the oldest files go first beyond it. */
  maxBytes: number;
}

export const defaultFileLinkOptions: FileLinkOptions = { ttlMs: 10 * 60_000, maxBytes: 200 * 1024 * 1024 };

/**
 * Short-lived links to made files, for `url` / `file` of the labels and waybills answers: integrations
 * open them in a browser without headers, so the link itself is the key (256 random bits), it expires,
 * and it belongs to the company that made it (a caller of another company is told it does not exist).
 * Kept in memory: a link outliving a restart is not needed when it lives minutes.
 */
export function createFileLinks(clock: Clock, options: FileLinkOptions = defaultFileLinkOptions) {
  const files = new Map<string, Stored>();
  let bytes = 0;

  const drop = (token: string) => {
    const file = files.get(token);
    if (!file) return;
    bytes -= file.bytes.length;
    files.delete(token);
  };
  const sweep = () => {
    const now = clock.now();
    for (const [token, file] of files) if (file.expiresAt <= now) drop(token);
    // Map order is insertion order, so the first ones are the oldest.
    for (const token of files.keys()) {
      if (bytes <= options.maxBytes) break;
      drop(token);
    }
  };

  return {
    /** Keeps the file and gives its token. */
    put(companyId: number, file: PrintedFile): { token: string; expiresAt: number } {
      const token = randomBytes(32).toString('base64url');
      const expiresAt = clock.now() + options.ttlMs;
      files.set(token, { ...file, companyId, expiresAt });
      bytes += file.bytes.length;
      sweep();
      return { token, expiresAt };
    },
    /** The file behind a token while it lives; with a company given, only that company's. */
    get(token: string, companyId?: number): PrintedFile | null {
      sweep();
      const file = files.get(token);
      if (!file || (companyId !== undefined && file.companyId !== companyId)) return null;
      return file;
    },
    get size() {
      return files.size;
    },
  };
}
export type FileLinks = ReturnType<typeof createFileLinks>;

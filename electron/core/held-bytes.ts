import { randomBytes } from 'node:crypto';

/**
 * Bytes a request body carried as a large base64 text, decoded off the main thread (api/body-parser.ts) and
 * held here while the request's value goes through its schema: the value holds a token in the text's place
 * (a string, so the schema is the same for every caller), and the code that wants the bytes takes them by it
 * (import/incoming-file.ts decodeBase64). A 40 MB text made on the main thread held it ≈ 0.4–0.9 s (at load 13–15);
 * bytes handed over from a thread cost nothing there.
 *
 * A token starts with NUL and names this process's random key: no request can spell one (a NUL in a request's text is
 * refused before the token is put in: validation.ts checkInputShape).
 */
const key = randomBytes(12).toString('hex');
const prefix = `\u0000held:${key}:`;
const held = new Map<string, Buffer>();
let next = 0;

/** Holds `bytes`; the token stands for them until taken or released (the request's end). */
export function holdBytes(bytes: Buffer): { token: string; release: () => void } {
  const token = `${prefix}${++next}`;
  held.set(token, bytes);
  return { token, release: () => held.delete(token) };
}

/** Whether `text` is a token of this process (the one text with a NUL that input may carry, put there by the codec). */
export const isHeldToken = (text: string) => text.startsWith(prefix);

/** The bytes `text` stands for (once), or undefined when it is a text of its own. */
export function takeHeldBytes(text: string): Buffer | undefined {
  if (!text.startsWith('\u0000')) return undefined;
  const bytes = held.get(text);
  held.delete(text);
  return bytes;
}

/** Bytes held now (tests: a request leaves none behind). */
export const heldCount = () => held.size;

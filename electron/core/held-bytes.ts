import { randomBytes } from 'node:crypto';

/**
 * Bytes a request body carried as a large base64 text, decoded off the main thread (api/body-parser.ts) and
 * held here while the request's value goes through its schema: the value holds a token in the text's place
 * (a string, so the schema is the same for every caller), and the code that wants the bytes takes them by it
 * (import/incoming-file.ts decodeBase64). A 40 MB text made on the main thread held it ≈ 0.4–0.9 s (at load 13–15);
 * bytes handed over from a thread cost nothing there.
 *
 * A token is `held:` and 256 random bits of its own, never sent or stored anywhere: no request can spell or guess
 * one (nor another from it, were it ever shown), so a request's own text is decoded as base64 (a token's `:` is not
 * base64) and never takes another request's bytes. It is plain text, so input checks treat it as any other
 * (validation.ts has no exception for it).
 */
const prefix = 'held:';
const held = new Map<string, Buffer>();

/** Holds `bytes`; the token stands for them until taken or released (the request's end). */
export function holdBytes(bytes: Buffer): { token: string; release: () => void } {
  const token = `${prefix}${randomBytes(32).toString('hex')}`;
  held.set(token, bytes);
  return { token, release: () => held.delete(token) };
}

/** The bytes `text` stands for (once), or undefined when it is a text of its own. */
export function takeHeldBytes(text: string): Buffer | undefined {
  if (!text.startsWith(prefix)) return undefined;
  const bytes = held.get(text);
  held.delete(text);
  return bytes;
}

/** Bytes held now (tests: a request leaves none behind). */
export const heldCount = () => held.size;

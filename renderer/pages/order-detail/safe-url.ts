/** A link the window may open: an absolute http(s) URL, normalised; anything else (javascript:, file:, junk) is null. */
export function safeHttpUrl(raw: string): string | null {
  try {
    const url = new URL(raw.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

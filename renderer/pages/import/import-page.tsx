/** Placeholder until the page is built. */
export function ImportPage() {
  return null;
}

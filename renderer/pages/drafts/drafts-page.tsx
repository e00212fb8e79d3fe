/** Placeholder until the page is built. */
export function DraftsPage() {
  return null;
}

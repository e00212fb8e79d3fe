/** Placeholder until the page is built. */
export function SettingsPage() {
  return null;
}

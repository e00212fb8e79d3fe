/** macOS shows ⌘ where other systems show Ctrl; the hotkeys themselves use Mantine's `mod`. */
export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** Key names for on-screen hints, e.g. ['Ctrl', 'N'] or ['⌘', 'N']. */
export const modKey = isMac ? '⌘' : 'Ctrl';

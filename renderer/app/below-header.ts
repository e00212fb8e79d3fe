/**
 * Side drawers (the order form, an order's card) open below the app's header, overlay included, so the header's
 * controls (language, who is signed in, background work) stay in reach while one is open. AppShell sets the
 * header's height as a variable on :root.
 */
const headerHeight = 'var(--app-shell-header-height, 0px)';

export const drawerBelowHeader = {
  /** For `Drawer.Root styles`: the drawer's frame starts under the header. */
  styles: { inner: { top: headerHeight } },
  /** For `Drawer.Overlay style`: the dimmed backdrop leaves the header uncovered (and clickable). */
  overlayStyle: { top: headerHeight },
} as const;

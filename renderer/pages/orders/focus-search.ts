import { useNavigationStore } from '../../stores/navigation-store';

const searchSelector = '[data-testid="search-input"]';

/**
 * Ctrl+F and "/": to the orders search box (from another page, the orders page opens first). The
 * browser's own find is kept from opening only when the box got the focus.
 */
export function focusOrderSearch(event?: KeyboardEvent): void {
  const box = document.querySelector<HTMLInputElement>(searchSelector);
  if (box) {
    event?.preventDefault();
    box.focus();
    box.select();
    return;
  }
  event?.preventDefault();
  useNavigationStore.getState().go('orders');
  // The page mounts on the next frames.
  requestAnimationFrame(() => requestAnimationFrame(() => document.querySelector<HTMLInputElement>(searchSelector)?.focus()));
}

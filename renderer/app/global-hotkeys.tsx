import { useHotkeys } from '@mantine/hooks';
import { useOrderFormStore } from '../stores/order-form-store';
import { focusOrderSearch } from '../pages/orders/focus-search';

/**
 * Window-wide shortcuts. Physical keys, so Ctrl+N also works with the Russian layout (where the key
 * types "т"); no ignored tags, so the shortcut works from the search box too.
 */
export function GlobalHotkeys() {
  const openOrderForm = useOrderFormStore((s) => s.open);
  useHotkeys([['mod+N', () => openOrderForm(), { usePhysicalKeys: true, preventDefault: true }]], []);
  // Search: Ctrl+F from anywhere (physical key: "а" on the Russian layout), "/" outside text fields.
  useHotkeys([['mod+F', (e) => focusOrderSearch(e), { usePhysicalKeys: true, preventDefault: false }]], []);
  useHotkeys([['/', (e) => focusOrderSearch(e), { preventDefault: false }]]);
  return null;
}

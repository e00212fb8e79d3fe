import { useHotkeys } from '@mantine/hooks';
import { useOrderFormStore } from '../stores/order-form-store';

/**
 * Window-wide shortcuts. Physical keys, so Ctrl+N also works with the Russian layout (where the key
 * types "т"); no ignored tags, so the shortcut works from the search box too.
 */
export function GlobalHotkeys() {
  const openOrderForm = useOrderFormStore((s) => s.open);
  useHotkeys([['mod+N', () => openOrderForm(), { usePhysicalKeys: true, preventDefault: true }]], []);
  return null;
}

import { useEffect } from 'react';
import { useAppearanceStore } from '../stores/appearance-store';
import { useNavigationStore } from '../stores/navigation-store';
import { getTransport } from '../transport/current';

/**
 * Chooses the screen a window opens on: "Today" once the shop has orders, the orders list (with its
 * first steps) before that; or what the settings fix.
 */
export function useFirstScreen(): void {
  useEffect(() => {
    const { firstScreen } = useAppearanceStore.getState();
    const { land } = useNavigationStore.getState();
    if (firstScreen !== 'auto') {
      land(firstScreen);
      return;
    }
    void getTransport()
      .invoke('orders.list', { limit: 1, offset: 0, withTotal: false })
      .then((answer) => land(answer.ok && answer.value.rows.length > 0 ? 'today' : 'orders'));
  }, []);
}

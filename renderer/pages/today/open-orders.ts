import { useNavigationStore } from '../../stores/navigation-store';
import { useOrdersStore, type OrdersFilter } from '../../stores/orders-store';

/** A figure's click: the orders list showing exactly the orders it counted. */
export function openOrders(filter: Partial<OrdersFilter>): void {
  useOrdersStore.getState().show(filter);
  useNavigationStore.getState().go('orders');
}

/** Props that make a figure (a bar, a card) a button opening its orders. */
export function clickThrough(onOpen: () => void, testId: string) {
  return {
    role: 'button',
    tabIndex: 0,
    'data-testid': testId,
    style: { cursor: 'pointer' },
    onClick: onOpen,
    onKeyDown: (event: React.KeyboardEvent) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        onOpen();
      }
    },
  };
}

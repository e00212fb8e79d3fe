import { create } from 'zustand';

interface OrderDetailState {
  /** The order whose detail drawer is open, or undefined. */
  orderId: string | undefined;
  open: (orderId: string) => void;
  close: () => void;
}

/** Which order's detail is shown; the orders list opens it, the detail drawer reads it. */
export const useOrderDetailStore = create<OrderDetailState>((set) => ({
  orderId: undefined,
  open: (orderId) => set({ orderId }),
  close: () => set({ orderId: undefined }),
}));

import { create } from 'zustand';
import type { ErrorBody } from '../../shared/errors';
import type { OrderSummary } from '../../shared/schemas/orders-list';
import { getTransport } from '../transport/current';

export const ordersPageSize = 100;

interface OrdersState {
  /** What is in the search box; applied to `search` after a pause in typing. */
  searchText: string;
  /** The search the rows were loaded with. */
  search: string;
  offset: number;
  rows: OrderSummary[];
  total: number;
  /** 'loading' keeps the previous rows on screen, so paging and searching do not flash. */
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: ErrorBody | undefined;
  /** The order just created, highlighted in the table for a moment. */
  highlightedId: string | undefined;
  /** Typing in the search box: the list reloads once typing pauses. */
  typeSearch: (text: string) => void;
  /** Applies a search at once (Enter, clear button). */
  setSearch: (search: string) => void;
  setOffset: (offset: number) => void;
  load: () => Promise<void>;
  /** Brings a new order into view: first page, no search, row highlighted. */
  reveal: (orderId: string) => Promise<void>;
}

// Answers can arrive out of order when the user types fast; only the latest request may write.
let requestSeq = 0;
let highlightTimer: ReturnType<typeof setTimeout> | undefined;
let searchTimer: ReturnType<typeof setTimeout> | undefined;
export const searchDebounceMs = 300;

/** The orders list screen: the query and the page of rows it returned. */
export const useOrdersStore = create<OrdersState>((set, get) => ({
  searchText: '',
  search: '',
  offset: 0,
  rows: [],
  total: 0,
  status: 'idle',
  error: undefined,
  highlightedId: undefined,

  typeSearch: (text) => {
    set({ searchText: text });
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => get().setSearch(text), searchDebounceMs);
  },

  setSearch: (search) => {
    clearTimeout(searchTimer);
    set({ searchText: search });
    if (search.trim() === get().search.trim()) return;
    set({ search, offset: 0 });
    void get().load();
  },

  setOffset: (offset) => {
    set({ offset: Math.max(0, offset) });
    void get().load();
  },

  load: async () => {
    const seq = ++requestSeq;
    const { search, offset } = get();
    set({ status: 'loading' });
    const trimmed = search.trim();
    const result = await getTransport().invoke('orders.list', {
      ...(trimmed ? { search: trimmed } : {}),
      limit: ordersPageSize,
      offset,
    });
    if (seq !== requestSeq) return;
    if (result.ok) set({ rows: result.value.rows, total: result.value.total, status: 'ready', error: undefined });
    else set({ status: 'error', error: result.error });
  },

  reveal: async (orderId) => {
    clearTimeout(highlightTimer);
    clearTimeout(searchTimer);
    set({ searchText: '', search: '', offset: 0, highlightedId: orderId });
    await get().load();
    highlightTimer = setTimeout(() => set({ highlightedId: undefined }), 4000);
  },
}));

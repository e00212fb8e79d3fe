import { create } from 'zustand';
import type { ErrorBody } from '../../shared/errors';
import type { OrderListQuery, OrderSortKey, OrderSummary } from '../../shared/schemas/orders-list';
import type { StatusKey } from '../../shared/status-keys';
import { getTransport } from '../transport/current';

/** Rows fetched per window while the user scrolls. */
export const ordersPageSize = 100;

/**
 * Pause after a keystroke before the list asks again. Short: a search answers in a few milliseconds
 * from its index (migration 0010), so waiting longer would only make the list feel slow; it still
 * folds a burst of fast typing into one request.
 */
export const searchDebounceMs = 15;

export interface OrdersFilter {
  statusKeys: StatusKey[];
  providerKey: string | null;
  /** YYYY-MM-DD, both days included. */
  dateFrom: string | null;
  dateTo: string | null;
  cod: 'yes' | 'no' | null;
  /** Only the orders that need attention (not marked seen). */
  attention: boolean;
}

export const emptyFilter: OrdersFilter = { statusKeys: [], providerKey: null, dateFrom: null, dateTo: null, cod: null, attention: false };

export interface OrdersSort {
  key: OrderSortKey;
  direction: 'asc' | 'desc';
}

const defaultSort: OrdersSort = { key: 'created', direction: 'desc' };

interface OrdersState {
  /** What is in the search box; applied to `search` after a short pause in typing. */
  searchText: string;
  /** The search the rows were loaded with. */
  search: string;
  filter: OrdersFilter;
  sort: OrdersSort;
  /** Loaded windows of rows by window number (index / ordersPageSize); the rest are fetched on scroll. */
  windows: Readonly<Record<number, readonly OrderSummary[]>>;
  /** Orders matching the query; undefined until counted. */
  total: number | undefined;
  /** The count stopped at `total` (a very broad search): there are at least that many. */
  totalCapped: boolean;
  /** Bumped on every request round (query change or reload): answers of older rounds are dropped. */
  generation: number;
  /** Bumped when the query changes (search, filter, sort): the table goes back to the top. */
  queryVersion: number;
  /** 'loading' keeps the previous rows on screen, so searching and filtering do not flash. */
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: ErrorBody | undefined;
  /** The order just created, highlighted in the table for a moment. */
  highlightedId: string | undefined;
  /** Checked orders (by id); they stay checked while scrolling and survive a reload. */
  selected: ReadonlySet<string>;
  /** Row index of the last checkbox clicked without Shift: the other end of a Shift+click range. */
  anchorIndex: number | undefined;

  typeSearch: (text: string) => void;
  /** Applies a search at once (Enter, clear button). */
  setSearch: (search: string) => void;
  setFilter: (patch: Partial<OrdersFilter>) => void;
  clearFilters: () => void;
  /** Opens exactly these orders: no search, only this filter (a figure of the "Today" screen, the attention badge). */
  show: (filter: Partial<OrdersFilter>) => void;
  /** A click on a sortable header: that column, or the other direction when it is the current one. */
  toggleSort: (key: OrderSortKey) => void;
  /** Reloads what is on screen with the same query (after a bulk action, on push events, "Refresh"). */
  load: () => Promise<void>;
  /** Fetches the windows covering rows first..last that are not loaded yet. */
  ensureRows: (first: number, last: number) => void;
  /** Brings a new order into view: no search or filters, newest first, row highlighted. */
  reveal: (orderId: string) => Promise<void>;
  /** Checks or unchecks one order; with `range`, everything between the anchor and this row. */
  toggleSelected: (index: number, range: boolean) => void;
  /** The header checkbox: all loaded rows of the current query, or none. */
  toggleAllLoaded: () => void;
  setSelected: (ids: Iterable<string>) => void;
  clearSelection: () => void;
}

// Answers can arrive out of order when the user types fast: each carries the generation it was asked
// for, and only answers for the current one may write.
let highlightTimer: ReturnType<typeof setTimeout> | undefined;
let searchTimer: ReturnType<typeof setTimeout> | undefined;
/** Windows being fetched for the current generation (not asked twice while scrolling). */
let inFlight = new Set<number>();
/** The rows the table showed last (ensureRows): a reload asks again only for the windows there. */
let shownRange = { first: 0, last: ordersPageSize - 1 };

/** Numbers of the windows that hold rows first..last. */
function windowsOf(first: number, last: number): number[] {
  const numbers: number[] = [];
  for (let n = Math.floor(Math.max(0, first) / ordersPageSize); n <= Math.floor(Math.max(0, last) / ordersPageSize); n++) numbers.push(n);
  return numbers;
}

/** The order at a row index, or undefined while its window is still being fetched. */
export function rowAt(windows: OrdersState['windows'], index: number): OrderSummary | undefined {
  return windows[Math.floor(index / ordersPageSize)]?.[index % ordersPageSize];
}

/**
 * How many rows the table has: the count; before it arrives, what the first window shows; past a capped
 * count, as far as the fetched windows go (a full last window means there may be more).
 */
export function rowCount(state: Pick<OrdersState, 'windows' | 'total' | 'totalCapped'>): number {
  const numbers = Object.keys(state.windows).map(Number);
  const last = numbers.length ? Math.max(...numbers) : -1;
  const lastRows = last >= 0 ? state.windows[last].length : 0;
  const fetched = last >= 0 ? last * ordersPageSize + lastRows + (lastRows === ordersPageSize ? 1 : 0) : 0;
  if (state.total === undefined) return Math.min(fetched, ordersPageSize);
  return state.totalCapped ? Math.max(state.total, fetched) : state.total;
}

/** The list query the screen's state stands for (without window and count). */
export function listFilterOf(state: Pick<OrdersState, 'search' | 'filter'>) {
  const { filter } = state;
  const search = state.search.trim();
  return {
    ...(search ? { search } : {}),
    ...(filter.statusKeys.length ? { statusKeys: filter.statusKeys } : {}),
    ...(filter.providerKey ? { providerKey: filter.providerKey } : {}),
    ...(filter.dateFrom ? { dateFrom: filter.dateFrom } : {}),
    ...(filter.dateTo ? { dateTo: filter.dateTo } : {}),
    ...(filter.cod ? { cod: filter.cod === 'yes' } : {}),
    ...(filter.attention ? { attention: true } : {}),
  } satisfies OrderListQuery;
}

/** Does the screen narrow the list in any way (search or a filter)? */
export const isNarrowed = (state: Pick<OrdersState, 'search' | 'filter'>) => Object.keys(listFilterOf(state)).length > 0;

/** The orders list screen: the query, the windows of rows fetched so far, and the checked orders. */
export const useOrdersStore = create<OrdersState>((set, get) => {
  const queryOf = () => ({ ...listFilterOf(get()), sort: get().sort.key, direction: get().sort.direction });

  /** The generation whose first answer replaces all rows instead of adding to them (a new query). */
  let resetGeneration = -1;

  /** One window of rows (no count: that is asked once per query, beside the first window). */
  async function fetchWindow(generation: number, number: number) {
    inFlight.add(number);
    const result = await getTransport().invoke('orders.list', {
      ...queryOf(),
      limit: ordersPageSize,
      offset: number * ordersPageSize,
      withTotal: false,
    });
    if (generation !== get().generation) return;
    inFlight.delete(number);
    if (!result.ok) {
      set({ status: 'error', error: result.error });
      return;
    }
    if (resetGeneration === generation) {
      // The previous query's rows stayed on screen until now, so the table did not flash empty.
      resetGeneration = -1;
      set({ windows: { [number]: result.value.rows }, status: 'ready', error: undefined });
    } else {
      set((s) => ({ windows: { ...s.windows, [number]: result.value.rows }, status: 'ready', error: undefined }));
    }
    // Past a capped count, a short window is the end of the list: now the number is known.
    if (get().totalCapped && result.value.rows.length < ordersPageSize) {
      set({ total: number * ordersPageSize + result.value.rows.length, totalCapped: false });
    }
  }

  async function fetchCount(generation: number) {
    const result = await getTransport().invoke('orders.list', { ...queryOf(), limit: 1, offset: 0, withTotal: true });
    if (generation !== get().generation) return;
    if (result.ok) set({ total: result.value.total, totalCapped: result.value.totalCapped ?? false });
    else set({ status: 'error', error: result.error });
  }

  /**
   * Asks again for the windows in `numbers` and the count under a new generation. The rows shown stay
   * until the answers replace them; with `reset` (a new query) the first answer replaces them all.
   */
  function refetch(numbers: number[], reset: boolean) {
    const generation = get().generation + 1;
    inFlight = new Set();
    if (reset) resetGeneration = generation;
    // A new query's count is unknown until it comes (the old one must not size the table meanwhile).
    set((s) => ({ generation, status: 'loading', ...(reset ? { total: undefined, totalCapped: false, queryVersion: s.queryVersion + 1 } : {}) }));
    // The count is asked once the rows are in: counting a large shop's orders takes longer than one
    // window of them, and the core answers one request at a time, so asked together the rows could
    // wait behind it. (A reload keeps the old count on screen meanwhile.)
    return Promise.all(numbers.map((n) => fetchWindow(generation, n))).then(() => fetchCount(generation));
  }

  /** A new query: from the top. */
  const restart = () => {
    shownRange = { first: 0, last: ordersPageSize - 1 };
    return refetch([0], true);
  };

  return {
    searchText: '',
    search: '',
    filter: emptyFilter,
    sort: defaultSort,
    windows: {},
    total: undefined,
    totalCapped: false,
    generation: 0,
    queryVersion: 0,
    status: 'idle',
    error: undefined,
    highlightedId: undefined,
    selected: new Set(),
    anchorIndex: undefined,

    typeSearch: (text) => {
      set({ searchText: text });
      clearTimeout(searchTimer);
      searchTimer = setTimeout(() => get().setSearch(text), searchDebounceMs);
    },

    setSearch: (search) => {
      clearTimeout(searchTimer);
      set({ searchText: search });
      if (search.trim() === get().search.trim()) return;
      set({ search, anchorIndex: undefined });
      void restart();
    },

    setFilter: (patch) => {
      set((s) => ({ filter: { ...s.filter, ...patch }, anchorIndex: undefined }));
      void restart();
    },

    clearFilters: () => {
      set({ filter: emptyFilter, anchorIndex: undefined });
      void restart();
    },

    show: (filter) => {
      clearTimeout(searchTimer);
      set({ searchText: '', search: '', filter: { ...emptyFilter, ...filter }, anchorIndex: undefined, selected: new Set() });
      void restart();
    },

    toggleSort: (key) => {
      const { sort } = get();
      // A new column starts with what one looks for first: newest, largest COD; numbers and statuses A→Z.
      const firstDirection = key === 'created' || key === 'cod' ? 'desc' : 'asc';
      set({
        sort: sort.key === key ? { key, direction: sort.direction === 'asc' ? 'desc' : 'asc' } : { key, direction: firstDirection },
        anchorIndex: undefined,
      });
      void restart();
    },

    load: async () => {
      // Only the windows on screen are asked again; the others are forgotten and fetched again if the
      // user scrolls back to them (after a long scroll there may be hundreds).
      const shown = windowsOf(shownRange.first, shownRange.last);
      set((s) => ({ windows: Object.fromEntries(shown.filter((n) => s.windows[n]).map((n) => [n, s.windows[n]])) }));
      await refetch(shown, false);
    },

    ensureRows: (first, last) => {
      shownRange = { first, last };
      const { windows, generation, status } = get();
      if (status === 'idle') return;
      for (const n of windowsOf(first, last)) if (!windows[n] && !inFlight.has(n)) void fetchWindow(generation, n);
    },

    reveal: async (orderId) => {
      clearTimeout(highlightTimer);
      clearTimeout(searchTimer);
      set({ searchText: '', search: '', filter: emptyFilter, sort: defaultSort, highlightedId: orderId });
      await restart();
      highlightTimer = setTimeout(() => set({ highlightedId: undefined }), 4000);
    },

    toggleSelected: (index, range) => {
      const { windows, selected, anchorIndex } = get();
      const order = rowAt(windows, index);
      if (!order) return;
      const next = new Set(selected);
      const checking = !selected.has(order.orderId);
      if (range && anchorIndex !== undefined) {
        // Shift+click: the range takes the state of the clicked row's new value.
        for (let i = Math.min(anchorIndex, index); i <= Math.max(anchorIndex, index); i++) {
          const row = rowAt(windows, i);
          if (!row) continue;
          if (checking) next.add(row.orderId);
          else next.delete(row.orderId);
        }
        set({ selected: next });
        return;
      }
      if (checking) next.add(order.orderId);
      else next.delete(order.orderId);
      set({ selected: next, anchorIndex: index });
    },

    toggleAllLoaded: () => {
      const { windows, selected } = get();
      const loaded = Object.values(windows).flatMap((rows) => rows.map((r) => r.orderId));
      const all = loaded.length > 0 && loaded.every((id) => selected.has(id));
      set({ selected: all ? new Set() : new Set(loaded), anchorIndex: undefined });
    },

    setSelected: (ids) => set({ selected: new Set(ids) }),
    clearSelection: () => set({ selected: new Set(), anchorIndex: undefined }),
  };
});

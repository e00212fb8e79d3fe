import { Checkbox, Table } from '@mantine/core';
import { useTable, type ColumnVisibilityState } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useServiceNaming } from '../../i18n/service-naming';
import { useFormat, useT } from '../../i18n/use-t';
import { useOrderDetailStore } from '../../stores/order-detail-store';
import { rowAt, rowCount, useOrdersStore } from '../../stores/orders-store';
import { useProvidersStore } from '../../stores/providers-store';
import { columnMeta, loadColumnVisibility, orderTableColumns, orderTableFeatures, saveColumnVisibility, selectColumnWidth, type CellContext } from './order-columns';
import { OrderRow } from './order-row';
import './orders-table.css';

/** Height of a row in px: fixed, so the virtualizer knows where row 90,000 is without measuring. */
export const rowHeight = 40;
const noRows: never[] = [];

/** In the attention view the reason takes the place of the service's number, the money and the date (the table fits a 1366-px window). */
const attentionViewColumns: ColumnVisibilityState = { reason: true, providerNumber: false, cod: false, delivery: false, created: false };

/** The column model (TanStack Table): which columns show, their sizes; the choice is remembered. */
export function useOrderTable() {
  const [columnVisibility, setColumnVisibility] = useState<ColumnVisibilityState>(loadColumnVisibility);
  const attentionView = useOrdersStore((s) => s.filter.attention);
  const table = useTable({
    features: orderTableFeatures,
    columns: orderTableColumns,
    // Rows are not given to the table: they come in windows as the user scrolls (see the store), and
    // a row model of 100,000 placeholders would be rebuilt on every window.
    data: noRows,
    state: { columnVisibility: attentionView ? { ...columnVisibility, ...attentionViewColumns } : { ...columnVisibility, reason: false } },
    onColumnVisibilityChange: (updater) =>
      setColumnVisibility((old) => {
        // The reason column belongs to the attention view, not to the user's choice.
        const next = { ...(typeof updater === 'function' ? updater(old) : updater), reason: false };
        saveColumnVisibility(next);
        return next;
      }),
  });
  return table;
}
export type OrderTable = ReturnType<typeof useOrderTable>;

/**
 * The orders as a virtualized table: only the rows in view (and a few around) are in the page; their
 * windows are fetched as they scroll into view. Sticky header, fixed column widths. Keyboard: the
 * table is one tab stop; arrows, Page Up/Down, Home/End move the focused row, Space checks it,
 * Shift+Space checks a range, Enter opens it.
 */
export function OrdersTable({ table }: { table: OrderTable }) {
  const t = useT();
  const format = useFormat();
  const providers = useProvidersStore((s) => s.providers);
  const windows = useOrdersStore((s) => s.windows);
  const count = useOrdersStore(rowCount);
  const queryVersion = useOrdersStore((s) => s.queryVersion);
  const selected = useOrdersStore((s) => s.selected);
  const highlightedId = useOrdersStore((s) => s.highlightedId);
  const sort = useOrdersStore((s) => s.sort);
  const toggleSort = useOrdersStore((s) => s.toggleSort);
  const toggleSelected = useOrdersStore((s) => s.toggleSelected);
  const toggleAllLoaded = useOrdersStore((s) => s.toggleAllLoaded);
  const ensureRows = useOrdersStore((s) => s.ensureRows);
  const [focused, setFocused] = useState(0);
  const scrollRef = useRef<HTMLDivElement>(null);

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 6,
    // Below the sticky header.
    scrollPaddingStart: rowHeight,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;

  // Fetch the windows in view once scrolling rests for a moment: dragging the scrollbar across
  // 100,000 rows must not ask for every window it passes.
  useEffect(() => {
    if (count === 0) return;
    const timer = setTimeout(() => ensureRows(first, last), 60);
    return () => clearTimeout(timer);
  }, [first, last, count, windows, ensureRows]);

  // A new search, filter or sort starts at the top.
  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
    setFocused(0);
  }, [queryVersion]);

  const naming = useServiceNaming();
  const ctx: CellContext = useMemo(() => ({ t, format, providers, naming }), [t, format, providers, naming]);
  const columns = table.getVisibleLeafColumns();
  const columnIds = useMemo(() => columns.map((c) => c.id), [columns.map((c) => c.id).join()]);

  const open = useCallback((index: number) => {
    setFocused(index);
    const order = rowAt(useOrdersStore.getState().windows, index);
    if (order) useOrderDetailStore.getState().open(order.orderId);
  }, []);
  const check = useCallback((index: number, range: boolean) => {
    setFocused(index);
    toggleSelected(index, range);
  }, [toggleSelected]);

  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(count - 1, index));
    setFocused(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget || count === 0) return;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / rowHeight) - 1);
    const keys: Record<string, () => void> = {
      ArrowDown: () => moveTo(focused + 1),
      ArrowUp: () => moveTo(focused - 1),
      PageDown: () => moveTo(focused + page),
      PageUp: () => moveTo(focused - page),
      Home: () => moveTo(0),
      End: () => moveTo(count - 1),
      ' ': () => toggleSelected(focused, e.shiftKey),
      Enter: () => open(focused),
    };
    const action = keys[e.key];
    if (!action) return;
    e.preventDefault();
    action();
  };

  const loaded = Object.values(windows).flat();
  const checkedLoaded = loaded.filter((o) => selected.has(o.orderId)).length;
  const paddingTop = items.length ? items[0].start : 0;
  const paddingBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const minWidth = selectColumnWidth + columns.reduce((sum, c) => sum + c.getSize(), 0);

  return (
    <div
      ref={scrollRef}
      className="sd-orders-scroll"
      tabIndex={0}
      role="grid"
      aria-label={t('ordersList.table')}
      aria-rowcount={count + 1}
      aria-multiselectable
      aria-activedescendant={rowAt(windows, focused) ? `order-row-${focused}` : undefined}
      aria-keyshortcuts="ArrowUp ArrowDown PageUp PageDown Home End Space Enter"
      onKeyDown={onKeyDown}
      data-testid="orders-table"
    >
      <Table className="sd-orders-table" highlightOnHover verticalSpacing={6} horizontalSpacing="xs" fz={13} miw={minWidth}>
        <colgroup>
          <col style={{ width: selectColumnWidth }} />
          {columns.map((c) => (
            <col key={c.id} style={{ width: c.getSize() }} />
          ))}
        </colgroup>
        <Table.Thead>
          <Table.Tr aria-rowindex={1}>
            <Table.Th>
              <Checkbox
                size="xs"
                tabIndex={-1}
                checked={loaded.length > 0 && checkedLoaded === loaded.length}
                indeterminate={checkedLoaded > 0 && checkedLoaded < loaded.length}
                onChange={toggleAllLoaded}
                aria-label={t('ordersList.selectAll')}
                data-testid="select-all"
              />
            </Table.Th>
            {columns.map((c) => {
              const meta = columnMeta(c.id);
              if (!meta) return null;
              const label = t(meta.label);
              const sorted = meta.sortKey && sort.key === meta.sortKey ? sort.direction : undefined;
              return (
                <Table.Th
                  key={c.id}
                  ta={meta.align}
                  aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                  data-testid={`column-${c.id}`}
                >
                  {meta.sortKey ? (
                    <button
                      type="button"
                      className="sd-sort-button"
                      onClick={() => meta.sortKey && toggleSort(meta.sortKey)}
                      title={t('ordersList.sortBy', { column: label })}
                      data-testid={`sort-${meta.sortKey}`}
                    >
                      {label}
                      <span aria-hidden style={{ opacity: sorted ? 1 : 0.25 }}>
                        {sorted === 'asc' ? '↑' : sorted === 'desc' ? '↓' : '↕'}
                      </span>
                    </button>
                  ) : (
                    label
                  )}
                </Table.Th>
              );
            })}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {paddingTop > 0 && (
            <tr className="sd-spacer" aria-hidden>
              <td colSpan={columns.length + 1} style={{ height: paddingTop }} />
            </tr>
          )}
          {items.map((item) => {
            const order = rowAt(windows, item.index);
            return (
              <OrderRow
                key={order?.orderId ?? `loading-${item.index}`}
                index={item.index}
                order={order}
                columnIds={columnIds}
                ctx={ctx}
                selected={order ? selected.has(order.orderId) : false}
                focused={item.index === focused}
                highlighted={order !== undefined && order.orderId === highlightedId}
                onCheck={check}
                onOpen={open}
              />
            );
          })}
          {paddingBottom > 0 && (
            <tr className="sd-spacer" aria-hidden>
              <td colSpan={columns.length + 1} style={{ height: paddingBottom }} />
            </tr>
          )}
        </Table.Tbody>
      </Table>
    </div>
  );
}

import { Checkbox, Table } from '@mantine/core';
import { memo, type MouseEvent } from 'react';
import type { OrderSummary } from '../../../shared/schemas/orders-list';
import { columnMeta, type CellContext } from './order-columns';

interface OrderRowProps {
  index: number;
  /** undefined while the row's window is being fetched: a placeholder of the same height. */
  order: OrderSummary | undefined;
  columnIds: readonly string[];
  ctx: CellContext;
  selected: boolean;
  focused: boolean;
  highlighted: boolean;
  onCheck: (index: number, range: boolean) => void;
  onOpen: (index: number) => void;
}

/** One order in the list (or its placeholder while it loads). */
export const OrderRow = memo(function OrderRow({ index, order, columnIds, ctx, selected, focused, highlighted, onCheck, onOpen }: OrderRowProps) {
  const className = ['sd-order-row', focused ? 'sd-row-focused' : '', highlighted ? 'sd-row-new' : ''].filter(Boolean).join(' ');
  if (!order) {
    return (
      <Table.Tr className={className} id={`order-row-${index}`} aria-rowindex={index + 2} aria-busy="true" data-testid="order-row-loading">
        <Table.Td />
        {columnIds.map((id) => (
          <Table.Td key={id}>
            <span className="sd-row-placeholder" aria-label={ctx.t('ordersList.loadingRow')} />
          </Table.Td>
        ))}
      </Table.Tr>
    );
  }
  const stop = (e: MouseEvent) => e.stopPropagation();
  return (
    <Table.Tr
      className={className}
      id={`order-row-${index}`}
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-testid="order-row"
      data-order-id={order.orderId}
      data-index={index}
      onClick={() => onOpen(index)}
    >
      <Table.Td onClick={stop}>
        <Checkbox
          size="xs"
          checked={selected}
          // The row is the keyboard stop (arrows, Space); the checkbox is for the mouse.
          tabIndex={-1}
          aria-label={ctx.t('ordersList.selectRow', { number: order.clientNumber })}
          onChange={() => {}}
          onClick={(e) => onCheck(index, e.shiftKey)}
          data-testid="row-checkbox"
        />
      </Table.Td>
      {columnIds.map((id) => {
        const meta = columnMeta(id);
        if (!meta) return null;
        const cell = meta.render(order, ctx);
        return (
          <Table.Td key={id} ta={meta.align} title={cell.title} className={id === 'cod' || id === 'created' ? 'sd-numeric' : undefined}>
            {/* up to two lines: a long number or city wraps instead of being cut */}
            <div className="sd-cell">{cell.content}</div>
          </Table.Td>
        );
      })}
    </Table.Tr>
  );
});

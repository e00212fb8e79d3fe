import { Table } from '@mantine/core';
import { useT } from '../../i18n/use-t';
import { useOrdersStore } from '../../stores/orders-store';
import { useProvidersStore } from '../../stores/providers-store';
import { OrderRow } from './order-row';

/**
 * Column widths in one place; the table is fixed-layout so a later virtualized body can reuse them.
 * Undefined width = takes the rest.
 */
export const orderColumns = [
  { key: 'clientNumber', label: 'orders.col.clientNumber', width: 110 },
  { key: 'recipient', label: 'orders.col.recipient', width: undefined },
  { key: 'city', label: 'orders.col.city', width: 140 },
  { key: 'service', label: 'orders.col.service', width: 140 },
  { key: 'providerNumber', label: 'orders.col.providerNumber', width: 125 },
  { key: 'status', label: 'orders.col.status', width: 240 },
  { key: 'cod', label: 'orders.col.cod', width: 125, align: 'right' },
  { key: 'created', label: 'orders.col.created', width: 150 },
] as const;

/** One page of orders, newest first, with a sticky header. */
export function OrdersTable() {
  const t = useT();
  const rows = useOrdersStore((s) => s.rows);
  const highlightedId = useOrdersStore((s) => s.highlightedId);
  const providers = useProvidersStore((s) => s.providers);
  return (
    <Table
      className="sd-orders-table"
      stickyHeader
      highlightOnHover
      verticalSpacing={6}
      horizontalSpacing="sm"
      fz={13}
      miw={1160}
      data-testid="orders-table"
    >
      <Table.Thead>
        <Table.Tr>
          {orderColumns.map((c) => (
            <Table.Th key={c.key} w={c.width} ta={'align' in c ? c.align : undefined} title={c.key === 'cod' ? t('field.codCost') : undefined}>
              {t(c.label)}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((order) => (
          <OrderRow key={order.orderId} order={order} providers={providers} highlighted={order.orderId === highlightedId} />
        ))}
      </Table.Tbody>
    </Table>
  );
}

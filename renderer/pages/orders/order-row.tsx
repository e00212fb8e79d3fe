import { Table, Text } from '@mantine/core';
import { memo } from 'react';
import type { ProviderInfo } from '../../../shared/contract/providers';
import type { OrderSummary } from '../../../shared/schemas/orders-list';
import { StatusBadge } from '../../components/status-badge';
import { useFormat, useT } from '../../i18n/use-t';
import { providerName } from '../../stores/providers-store';

interface OrderRowProps {
  order: OrderSummary;
  providers: readonly ProviderInfo[];
  highlighted: boolean;
}

const Dash = ({ title }: { title?: string }) => (
  <Text span c="dimmed" title={title}>
    —
  </Text>
);

/** One order in the list. */
export const OrderRow = memo(function OrderRow({ order, providers, highlighted }: OrderRowProps) {
  const t = useT();
  const format = useFormat();
  return (
    <Table.Tr data-testid="order-row" data-order-id={order.orderId} className={highlighted ? 'sd-row-new' : undefined}>
      <Table.Td fw={600} className="sd-numeric" title={order.clientNumber}>
        {order.clientNumber}
      </Table.Td>
      <Table.Td title={`${order.recipientName}, ${order.recipientPhone}`}>{order.recipientName}</Table.Td>
      <Table.Td title={order.recipientCity ?? undefined}>{order.recipientCity ?? <Dash />}</Table.Td>
      <Table.Td title={providerName(providers, order.providerKey)}>{providerName(providers, order.providerKey)}</Table.Td>
      <Table.Td ff="monospace" fz="xs">
        {order.providerNumber ?? <Dash title={t('orders.pending')} />}
      </Table.Td>
      <Table.Td>
        <StatusBadge statusKey={order.statusKey} description={order.statusDescription} />
      </Table.Td>
      <Table.Td ta="right" className="sd-numeric">
        {order.codCost > 0 ? format.money(order.codCost) : <Dash title={t('orders.noCod')} />}
      </Table.Td>
      <Table.Td className="sd-numeric" c="dimmed">
        {format.dateTime(order.created)}
      </Table.Td>
    </Table.Tr>
  );
});

import { Group, Text } from '@mantine/core';
import { useFormat, useT } from '../../i18n/use-t';
import { useOrdersStore } from '../../stores/orders-store';

/** How many orders match (or "over 1,000" for a very broad search), and the table's keys. */
export function OrdersFooter() {
  const t = useT();
  const format = useFormat();
  const total = useOrdersStore((s) => s.total);
  const capped = useOrdersStore((s) => s.totalCapped);
  return (
    <Group px="md" py={6} justify="space-between" gap="xs" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <Text size="xs" c="dimmed" visibleFrom="sm">
        {t('ordersList.keys')}
      </Text>
      <Text size="xs" c="dimmed" className="sd-numeric" data-testid="orders-count">
        {total === undefined
          ? t('ordersList.counting')
          : t(capped ? 'ordersList.countCapped' : 'ordersList.count', { count: format.count(total) })}
      </Text>
    </Group>
  );
}

import { ActionIcon, Group, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '../../components/icons';
import { useFormat, useT } from '../../i18n/use-t';
import { ordersPageSize, useOrdersStore } from '../../stores/orders-store';

/** "1–100 of 1 234" and the page arrows. */
export function OrdersFooter() {
  const t = useT();
  const format = useFormat();
  const offset = useOrdersStore((s) => s.offset);
  const shown = useOrdersStore((s) => s.rows.length);
  const total = useOrdersStore((s) => s.total);
  const setOffset = useOrdersStore((s) => s.setOffset);
  const from = total === 0 ? 0 : offset + 1;
  const to = offset + shown;
  return (
    <Group
      px="md"
      py={6}
      justify="flex-end"
      gap="xs"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Text size="xs" c="dimmed" className="sd-numeric" data-testid="orders-range">
        {t('orders.range', { from: format.count(from), to: format.count(to), total: format.count(total) })}
      </Text>
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={t('orders.prev')}
        disabled={offset === 0}
        onClick={() => setOffset(offset - ordersPageSize)}
      >
        <IconChevronLeft size={16} />
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={t('orders.next')}
        disabled={to >= total}
        onClick={() => setOffset(offset + ordersPageSize)}
      >
        <IconChevronRight size={16} />
      </ActionIcon>
    </Group>
  );
}

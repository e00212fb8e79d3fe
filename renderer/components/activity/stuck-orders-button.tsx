import { Badge, Group, Popover, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { statusWords } from '../../i18n/error-messages';
import { useServiceNaming } from '../../i18n/service-naming';
import { useT } from '../../i18n/use-t';
import { useOrderDetailStore } from '../../stores/order-detail-store';
import { useStuckOrdersStore } from '../../stores/stuck-orders-store';
import { IconClock } from '../icons';
import { StatusBadge } from '../status-badge';
import classes from './activity.module.css';

/** Orders with no new status for the stuck threshold: a count in the header, the list on click; a row opens the order. */
export function StuckOrdersButton() {
  const t = useT();
  const naming = useServiceNaming();
  const { total, rows, thresholdDays } = useStuckOrdersStore();
  const openOrder = useOrderDetailStore((s) => s.open);
  const [opened, setOpened] = useState(false);
  if (total === 0) return null;
  return (
    <Popover width={360} position="bottom-end" withArrow shadow="md" opened={opened} onChange={setOpened}>
      <Popover.Target>
        <UnstyledButton onClick={() => setOpened((o) => !o)} aria-label={t('activity.stuck.label', { count: total })} data-testid="stuck-orders" data-count={total}>
          <Badge variant="light" color="yellow" size="lg" radius="sm" tt="none" fw={600} leftSection={<IconClock size={15} />} style={{ cursor: 'pointer' }}>
            {t('activity.stuck.button', { count: total })}
          </Badge>
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown p="xs" data-testid="stuck-orders-list">
        <Text fz="sm" fw={600} mb={4}>
          {t('activity.stuck.title', { days: thresholdDays ?? '' })}
        </Text>
        <ScrollArea.Autosize mah={320}>
          <Stack gap={2}>
            {rows.map((row) => (
              <UnstyledButton
                key={row.orderId}
                onClick={() => {
                  setOpened(false);
                  openOrder(row.orderId);
                }}
                p={6}
                style={{ borderRadius: 4 }}
                className={classes.row}
                data-testid="stuck-order"
              >
                {/* Number and name wrap rather than be cut; the status by its short name (the full one on hover). */}
                <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
                  <Stack gap={0} miw={0} style={{ overflowWrap: 'break-word' }}>
                    <Text fz="sm" fw={600}>
                      {row.clientNumber}
                    </Text>
                    <Text fz="xs" c="dimmed">
                      {row.recipientName}
                    </Text>
                  </Stack>
                  <Stack gap={2} align="flex-end" style={{ flexShrink: 0 }}>
                    <StatusBadge statusKey={row.statusKey} description={statusWords(row, t, naming)} compact />
                    <Text fz="xs" c="dimmed" className="sd-numeric">
                      {t('activity.stuck.days', { days: row.daysWithoutChange })}
                    </Text>
                  </Stack>
                </Group>
              </UnstyledButton>
            ))}
          </Stack>
        </ScrollArea.Autosize>
        {total > rows.length && (
          <Text fz="xs" c="dimmed" mt={4}>
            {t('activity.stuck.more', { count: total - rows.length })}
          </Text>
        )}
        <Text fz="xs" c="dimmed" mt={4}>
          {t('activity.stuck.hint')}
        </Text>
      </Popover.Dropdown>
    </Popover>
  );
}

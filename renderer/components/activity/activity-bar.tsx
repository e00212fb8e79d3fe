import { Group } from '@mantine/core';
import { AttentionButton } from './attention-button';
import { OutboxIndicator } from './outbox-indicator';
import { RefreshControl } from './refresh-control';
import { StuckOrdersButton } from './stuck-orders-button';
import { useActivityEvents } from './use-activity-events';

/** The header's view of background work: the outbox queue, stuck orders and the status refresh. */
export function ActivityBar() {
  useActivityEvents();
  return (
    <Group gap="sm" wrap="nowrap">
      <OutboxIndicator />
      <AttentionButton />
      <StuckOrdersButton />
      <RefreshControl />
    </Group>
  );
}

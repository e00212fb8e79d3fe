import { Badge, Popover, Stack, Text, UnstyledButton } from '@mantine/core';
import { useLanguage, useT } from '../../i18n/use-t';
import { useOutboxStore } from '../../stores/outbox-store';
import { IconCloudOff, IconTruck } from '../icons';
import { shortTime } from './short-time';
import { messageByKey } from '../../i18n/error-messages';
import { useServiceNaming } from '../../i18n/service-naming';

/**
 * The outbox in the header: nothing while it is empty, "sending" while orders go out, and "waiting
 * for connection" with the queue and the next attempt while sends fail and are retried.
 */
export function OutboxIndicator() {
  const t = useT();
  const language = useLanguage();
  const view = useOutboxStore((s) => s.view);
  const naming = useServiceNaming();
  if (!view || view.pending === 0) return null;
  const waiting = view.waitingForConnection;
  return (
    <Popover width={300} position="bottom-end" withArrow shadow="md">
      <Popover.Target>
        <UnstyledButton
          data-testid="outbox-indicator"
          data-state={waiting ? 'waiting' : 'sending'}
          data-pending={view.pending}
          aria-label={waiting ? `${t('activity.outbox.waiting')}. ${t('activity.outbox.queued', { count: view.pending })}` : t('activity.outbox.sending', { count: view.pending })}
        >
          <Badge
            variant="light"
            color={waiting ? 'orange' : 'blue'}
            size="lg"
            radius="sm"
            tt="none"
            fw={600}
            leftSection={waiting ? <IconCloudOff size={15} /> : <IconTruck size={15} />}
            style={{ cursor: 'pointer' }}
          >
            {waiting ? `${t('activity.outbox.waiting')} · ${view.pending}` : t('activity.outbox.sending', { count: view.pending })}
          </Badge>
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown data-testid="outbox-details">
        <Stack gap={4}>
          <Text fz="sm" fw={600}>
            {waiting ? t('activity.outbox.waiting') : t('activity.outbox.sending', { count: view.pending })}
          </Text>
          <Text fz="sm" data-testid="outbox-queued">
            {t('activity.outbox.queued', { count: view.pending })}
          </Text>
          {waiting && view.nextAttemptAt && (
            <Text fz="sm" data-testid="outbox-next-attempt">
              {t('activity.outbox.nextAttempt', { time: shortTime(view.nextAttemptAt, language, { seconds: true }) })}
            </Text>
          )}
          {waiting && view.lastError && (
            <Text fz="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
              {t('activity.outbox.lastError', { error: (view.lastErrorMessage && messageByKey(view.lastErrorMessage, t, naming)) || view.lastError })}
            </Text>
          )}
          {waiting && (
            <Text fz="xs" c="dimmed">
              {t('activity.outbox.hint')}
            </Text>
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

import { Badge, Popover, Stack, Text, UnstyledButton } from '@mantine/core';
import { useLanguage, useT } from '../../i18n/use-t';
import { useOutboxStore } from '../../stores/outbox-store';
import { IconCloudOff, IconTruck } from '../icons';
import { shortTime } from './short-time';
import { fieldMessage } from '../../i18n/error-messages';
import { useServiceNaming } from '../../i18n/service-naming';
import { credentialsRefused, OpenSettingsButton } from './credentials-refused';

/**
 * The outbox in the header: nothing while it is empty, "sending" while orders go out, "waiting
 * for connection" with the queue and the next attempt while sends fail and are retried, and "connection not
 * accepted" when the service refused the connection's login: that one says to fix it in the settings.
 */
export function OutboxIndicator() {
  const t = useT();
  const language = useLanguage();
  const view = useOutboxStore((s) => s.view);
  const naming = useServiceNaming();
  if (!view || view.pending === 0) return null;
  const waiting = view.waitingForConnection;
  const refused = waiting && credentialsRefused(view.lastErrorMessage);
  const title = refused ? t('activity.outbox.refused') : waiting ? t('activity.outbox.waiting') : t('activity.outbox.sending', { count: view.pending });
  const lastError = view.lastError && fieldMessage({ message: view.lastError, ...view.lastErrorMessage }, t, naming);
  return (
    <Popover width={300} position="bottom-end" withArrow shadow="md">
      <Popover.Target>
        <UnstyledButton
          data-testid="outbox-indicator"
          data-state={refused ? 'refused' : waiting ? 'waiting' : 'sending'}
          data-pending={view.pending}
          aria-label={waiting ? `${title}. ${t('activity.outbox.queued', { count: view.pending })}` : title}
        >
          <Badge
            variant="light"
            color={refused ? 'red' : waiting ? 'orange' : 'blue'}
            size="lg"
            radius="sm"
            tt="none"
            fw={600}
            leftSection={waiting ? <IconCloudOff size={15} /> : <IconTruck size={15} />}
            style={{ cursor: 'pointer' }}
          >
            {waiting ? `${title} · ${view.pending}` : title}
          </Badge>
        </UnstyledButton>
      </Popover.Target>
      <Popover.Dropdown data-testid="outbox-details">
        <Stack gap={4}>
          <Text fz="sm" fw={600}>
            {title}
          </Text>
          <Text fz="sm" data-testid="outbox-queued">
            {t('activity.outbox.queued', { count: view.pending })}
          </Text>
          {waiting && !refused && view.nextAttemptAt && (
            <Text fz="sm" data-testid="outbox-next-attempt">
              {t('activity.outbox.nextAttempt', { time: shortTime(view.nextAttemptAt, language, { seconds: true }) })}
            </Text>
          )}
          {refused && (
            <Text fz="sm" style={{ wordBreak: 'break-word' }} data-testid="outbox-credentials-refused">
              {lastError}
            </Text>
          )}
          {refused && <OpenSettingsButton />}
          {waiting && !refused && lastError && (
            <Text fz="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
              {t('activity.outbox.lastError', { error: lastError })}
            </Text>
          )}
          {waiting && !refused && (
            <Text fz="xs" c="dimmed">
              {t('activity.outbox.hint')}
            </Text>
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

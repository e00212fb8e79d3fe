import { Alert, Stack, Text } from '@mantine/core';
import type { OrderView } from '../../../shared/schemas/order-detail';
import { credentialsRefused, OpenSettingsButton } from '../../components/activity/credentials-refused';
import { shortTime } from '../../components/activity/short-time';
import { IconCloudOff } from '../../components/icons';
import { fieldMessage } from '../../i18n/error-messages';
import { useServiceNaming } from '../../i18n/service-naming';
import { useLanguage, useT } from '../../i18n/use-t';
import { useOrderViewStore } from './order-view-store';

/**
 * Why the order still waits in the outbox, once a try to reach its service failed: what is not sent yet, the
 * service's last error in the window's language, the attempts and the next one; a login the service refused says
 * to fix the connection instead (it will not mend by itself), with the way to the settings.
 */
export function OutboxNote({ job }: { job: OrderView['outbox'] }) {
  const t = useT();
  const language = useLanguage();
  const naming = useServiceNaming();
  const order = useOrderViewStore((s) => s.view?.order);
  if (!job?.lastError) return null;
  const refused = credentialsRefused(job.lastErrorMessage);
  const error = fieldMessage({ message: job.lastError, ...job.lastErrorMessage }, t, naming);
  return (
    <Alert
      color={refused ? 'red' : 'orange'}
      variant="light"
      icon={<IconCloudOff size={18} />}
      title={t(`detail.outbox.${job.action}`)}
      data-testid="detail-outbox"
      data-refused={refused || undefined}
    >
      <Stack gap={6}>
        <Text fz="sm" style={{ wordBreak: 'break-word' }} data-testid="detail-outbox-error">
          {error}
        </Text>
        <Text fz="xs" c="dimmed">
          {refused
            ? t('detail.outbox.attempts', { count: job.attempts })
            : `${t('detail.outbox.attempts', { count: job.attempts })}, ${t('detail.outbox.nextAttempt', { time: shortTime(job.nextAttemptAt, language, { seconds: true }) })}. ${t('detail.outbox.hint')}`}
        </Text>
        {refused && <OpenSettingsButton connection={order && { id: order.providerConnectId, providerKey: order.providerKey }} />}
      </Stack>
    </Alert>
  );
}

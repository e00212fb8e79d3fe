import { Badge, Group, Tooltip } from '@mantine/core';
import { useT } from '../i18n/use-t';
import { useSessionStore } from '../stores/session-store';

/** Browser mode only: whether the event stream to the local server is up. Electron's IPC cannot drop. */
export function ConnectionIndicator() {
  const t = useT();
  const kind = useSessionStore((s) => s.transportKind);
  const connection = useSessionStore((s) => s.connection);
  if (kind !== 'http') return null;
  const color = connection === 'connected' ? 'green' : connection === 'connecting' ? 'gray' : 'orange';
  return (
    <Group gap={6} wrap="nowrap" visibleFrom="xs">
      <Tooltip label={t('header.mode.browserHint')} openDelay={300}>
        <Badge variant="default" size="sm" radius="sm" tt="none" fw={500}>
          {t('header.mode.browser')}
        </Badge>
      </Tooltip>
      <Badge
        variant="dot"
        color={color}
        size="sm"
        radius="sm"
        tt="none"
        fw={500}
        role="status"
        data-testid="connection-state"
        data-state={connection}
      >
        {t(`header.connection.${connection}`)}
      </Badge>
    </Group>
  );
}

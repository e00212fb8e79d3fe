import { Badge, Group, Stack, Text } from '@mantine/core';
import type { ConnectionTestResult as ConnectionTestResultValue } from '../../../shared/contract/connections';
import { connectionResultMessage } from '../../i18n/error-messages';
import { useFormat, useT } from '../../i18n/use-t';

/** Badges keep their words whole; the text beside them wraps instead. */
export const noShrink = { flexShrink: 0, minWidth: 'max-content' } as const;

/** The last check of a connection: passed or not, when, and the service's own words. */
export function ConnectionTestResult({ result }: { result: ConnectionTestResultValue | undefined }) {
  const t = useT();
  const format = useFormat();
  if (!result)
    return (
      <Text size="xs" c="dimmed">
        {t('settings.connections.notChecked')}
      </Text>
    );
  return (
    <Stack gap={2} data-testid="connection-test-result" data-ok={result.ok}>
      <Group gap={6} wrap="wrap">
        <Badge size="sm" color={result.ok ? 'green' : 'red'} variant="light" style={noShrink}>
          {t(result.ok ? 'settings.connections.testOk' : 'settings.connections.testFailed')}
        </Badge>
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {t('settings.connections.checkedAt', { time: format.dateTime(result.checkedAt) })}
        </Text>
      </Group>
      {/* The service's own words: they name the cause (wrong secret, unreachable host) better than a summary;
          ShipDesk's own results ("Connected to CDEK") are translated, a service's text stays as it wrote it. */}
      <Text size="xs" c={result.ok ? 'dimmed' : 'red'} style={{ wordBreak: 'break-word' }} data-testid="connection-test-message">
        {connectionResultMessage(result, t)}
      </Text>
    </Stack>
  );
}

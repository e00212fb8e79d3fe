import { Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useEffect } from 'react';
import type { AppWebhookAttempt } from '../../../shared/contract/webhooks';
import { messageByKey } from '../../i18n/error-messages';
import { useServiceNaming } from '../../i18n/service-naming';
import { IconRefresh } from '../../components/icons';
import { useFormat, useT } from '../../i18n/use-t';
import { useWebhooksStore } from '../../stores/webhooks-store';
import { CodeText } from '../../components/code-text';

/** The sites the companies' API clients asked to be called on status changes, and how their last calls went. */
export function WebhooksOverview() {
  const t = useT();
  const format = useFormat();
  const webhooks = useWebhooksStore((s) => s.webhooks);
  const naming = useServiceNaming();
  useEffect(() => {
    void useWebhooksStore.getState().load();
  }, []);

  const outcome = (a: AppWebhookAttempt) =>
    a.delivered ? t('settings.api.webhookDelivered', { status: a.httpStatus ?? '' }) : a.httpStatus !== null && !a.error
        ? t('settings.api.webhookAnswered', { status: a.httpStatus })
        : (a.errorMessage && messageByKey(a.errorMessage, t, naming)) || a.error || t('settings.api.webhookUnreachable');

  return (
    <Stack gap="xs" data-testid="api-webhooks">
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          {t('settings.api.webhooksTitle')}
        </Text>
        <Button size="xs" variant="default" leftSection={<IconRefresh size={14} />} onClick={() => void useWebhooksStore.getState().load()} data-testid="api-webhooks-refresh">
          {t('settings.api.webhooksRefresh')}
        </Button>
      </Group>
      {webhooks && webhooks.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="api-webhooks-empty">
          <CodeText text={t('settings.api.webhooksNone')} />
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="xs" data-testid="api-webhooks-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('settings.api.webhookSite')}</Table.Th>
                <Table.Th>{t('settings.api.webhookWaiting')}</Table.Th>
                <Table.Th>{t('settings.api.webhookLast')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(webhooks ?? []).map((w) => {
                const last = w.lastAttempts[0];
                return (
                  <Table.Tr key={w.uuid} data-testid="api-webhook-row">
                    <Table.Td>
                      <Text size="sm" style={{ wordBreak: 'break-all' }}>
                        {w.url}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {w.companyName}
                      </Text>
                    </Table.Td>
                    <Table.Td data-testid="api-webhook-waiting">{w.waiting}</Table.Td>
                    <Table.Td data-testid="api-webhook-last">
                      {last ? (
                        <Group gap={6} wrap="nowrap">
                          <Badge size="sm" variant="light" color={last.delivered ? 'green' : 'red'} style={{ flexShrink: 0 }}>
                            {format.dateTime(last.at)}
                          </Badge>
                          <Text size="sm">{outcome(last)}</Text>
                        </Group>
                      ) : (
                        <Text size="sm" c="dimmed">
                          {t('settings.api.webhookNoCalls')}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

import { Badge, Button, Stack, Table, Text, Title, type MantineColor } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import type { CourierCallView } from '../../../shared/schemas/courier-call';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { usePushEvent } from '../../components/use-push-event';
import { errorHint, errorTitle } from '../../i18n/error-messages';
import { useServiceNaming } from '../../i18n/service-naming';
import { useFormat, useT } from '../../i18n/use-t';
import { toastRefusal, useToastStore } from '../../stores/toast-store';
import { getTransport } from '../../transport/current';
import { courierProblemText } from './courier-messages';

const stateColors: Record<CourierCallView['state'], MantineColor> = { accepted: 'green', refused: 'red', failed: 'orange', canceled: 'gray' };

/** The company's courier calls with their state and the service's number; an accepted one can be canceled. */
export function CourierCallsList({ reloadKey }: { reloadKey: number }) {
  const t = useT();
  const format = useFormat();
  const naming = useServiceNaming();
  const serviceName = (key: string) => naming.service?.(key) ?? key;
  const [calls, setCalls] = useState<CourierCallView[]>([]);
  const [asking, setAsking] = useState<CourierCallView | undefined>();
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    const answer = await getTransport().invoke('courier.list', { limit: 50, offset: 0 });
    if (answer.ok) setCalls(answer.value.rows);
  }, []);
  useEffect(() => {
    void load();
  }, [load, reloadKey]);
  // The status refresh brings the services' later word (a number, a refusal); the list shows what is kept.
  usePushEvent(['courier.changed'], () => void load());

  const cancel = async (call: CourierCallView) => {
    setBusy(true);
    const answer = await getTransport().invoke('courier.cancel', { id: call.id });
    setBusy(false);
    setAsking(undefined);
    if (answer.ok) useToastStore.getState().push({ tone: 'success', title: (tr) => tr('courier.canceled') });
    else {
      toastRefusal(answer.error, { title: (tr) => tr('courier.cancelFailed'), message: (tr) => errorHint(answer.error, tr, naming) ?? errorTitle(answer.error, tr) });
    }
    await load();
  };

  return (
    <Stack gap="xs" data-testid="courier-calls">
      <Title order={5}>{t('courier.calls')}</Title>
      {calls.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('courier.callsEmpty')}
        </Text>
      ) : (
        <Table striped highlightOnHover fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('courier.col.when')}</Table.Th>
              <Table.Th>{t('courier.col.service')}</Table.Th>
              <Table.Th>{t('courier.col.address')}</Table.Th>
              <Table.Th>{t('courier.col.state')}</Table.Th>
              <Table.Th>{t('courier.col.number')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {calls.map((call) => (
              <Table.Tr key={call.id} data-testid={`courier-call-${call.id}`}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {format.date(call.date)}
                  <br />
                  {call.timeStart}–{call.timeEnd}
                </Table.Td>
                <Table.Td>{serviceName(call.providerKey)}</Table.Td>
                <Table.Td>{call.address || call.city}</Table.Td>
                <Table.Td>
                  <Badge color={stateColors[call.state]} variant="light" title={call.error ? courierProblemText(call.error, call.errorMessage, t, naming) : undefined} data-testid="courier-call-state">
                    {t(`courier.state.${call.state}`)}
                  </Badge>
                  {call.error && (
                    <Text size="xs" c="dimmed" maw={260}>
                      {courierProblemText(call.error, call.errorMessage, t, naming)}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ff="monospace">{call.providerNumber ?? '—'}</Table.Td>
                <Table.Td>
                  {call.state === 'accepted' && (
                    <Button size="compact-xs" variant="light" color="red" onClick={() => setAsking(call)} data-testid="courier-call-cancel">
                      {t('courier.cancel')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {asking && (
        <ConfirmDialog
          opened
          title={t('courier.cancelTitle')}
          body={t('courier.cancelBody', { date: format.date(asking.date) })}
          confirmLabel={t('courier.cancelConfirm')}
          keepLabel={t('courier.cancelKeep')}
          busy={busy}
          onConfirm={() => void cancel(asking)}
          onClose={() => setAsking(undefined)}
          testId="courier-cancel-confirm"
        />
      )}
    </Stack>
  );
}

import { Alert, Badge, Box, Button, Center, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { DispatchGroup } from '../../../shared/contract/dispatch';
import type { ErrorBody } from '../../../shared/errors';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { IconCheck, IconTruck } from '../../components/icons';
import { errorTitle } from '../../i18n/error-messages';
import { useLanguage, useT } from '../../i18n/use-t';
import { toastRefusal, useToastStore } from '../../stores/toast-store';
import { getTransport } from '../../transport/current';
import { useProvidersStore } from '../../stores/providers-store';
import { CourierCallDialog } from '../courier/courier-call-dialog';
import { PrintLabelsButton } from '../orders/print-labels-button';
import { printActs } from '../orders/print-files';
import { FormBatches, PostalBatchesCard } from './postal-batches';

const kilograms = (grams: number, language: string) => (grams / 1000).toLocaleString(language === 'ru' ? 'ru-RU' : 'en-GB', { maximumFractionDigits: 3 });

/**
 * Передача: the registered orders that wait for the courier, one card per delivery service with its
 * totals; print the group's labels and act, then mark it handed over (its orders leave the screen).
 */
export function DispatchPage() {
  const t = useT();
  const [groups, setGroups] = useState<DispatchGroup[] | null>(null);
  const [error, setError] = useState<ErrorBody | null>(null);

  const load = useCallback(async () => {
    const answer = await getTransport().invoke('dispatch.pending', {});
    if (answer.ok) {
      setGroups(answer.value.groups);
      setError(null);
    } else setError(answer.error);
  }, []);

  useEffect(() => {
    void load();
    return getTransport().onEvent((event) => {
      if (event.type === 'orders.changed') void load();
    });
  }, [load]);

  return (
    <Box p="md" data-testid="dispatch-page">
      <Group gap="xs" mb={4}>
        <IconTruck size={20} />
        <Title order={2} fz="lg">
          {t('dispatch.title')}
        </Title>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        {t('dispatch.hint')}
      </Text>
      <Box mb="md">
        <PostalBatchesCard />
      </Box>
      {error ? (
        <Alert color="red" variant="light" title={t('dispatch.loadFailed')}>
          {errorTitle(error, t)}
        </Alert>
      ) : groups === null ? (
        <Center h={160}>
          <Loader size="sm" />
        </Center>
      ) : groups.length === 0 ? (
        <Text c="dimmed" data-testid="dispatch-empty">
          {t('dispatch.empty')}
        </Text>
      ) : (
        <Stack gap="md">
          {groups.map((group) => (
            <DispatchGroupCard key={group.providerKey} group={group} onHandedOver={() => void load()} />
          ))}
        </Stack>
      )}
    </Box>
  );
}

function DispatchGroupCard({ group, onHandedOver }: { group: DispatchGroup; onHandedOver: () => void }) {
  const t = useT();
  const language = useLanguage();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState<'act' | 'handOver' | null>(null);
  const [callingCourier, setCallingCourier] = useState(false);
  const orderIds = () => group.orders.map((o) => o.orderId);
  // One array per group, so the dialog asks for its draft once.
  const groupOrderIds = useMemo(() => group.orders.map((o) => o.orderId), [group]);
  // The group's service takes courier calls: the dialog opens with its service, orders and totals.
  const takesCalls = useProvidersStore((s) => s.providers.some((p) => p.key === group.providerKey && p.capabilities.operations?.includes('courierCalls')));
  useEffect(() => {
    void useProvidersStore.getState().load();
  }, []);

  const act = async () => {
    setBusy('act');
    await printActs(orderIds());
    setBusy(null);
  };
  const handOver = async () => {
    setBusy('handOver');
    const answer = await getTransport().invoke('dispatch.handOver', { providerKey: group.providerKey, orderIds: orderIds() });
    setBusy(null);
    setAsking(false);
    if (!answer.ok) {
      const failure = answer.error;
      toastRefusal(failure, { title: (tr) => tr('dispatch.failed'), message: (tr) => errorTitle(failure, tr) });
      return;
    }
    const { number } = answer.value;
    useToastStore.getState().push({ tone: 'success', title: (tr) => tr('dispatch.done', { number }) });
    onHandedOver();
  };

  return (
    <Paper withBorder radius="md" p="md" data-testid="dispatch-group" data-provider={group.providerKey}>
      <Group justify="space-between" align="flex-start" mb="sm" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Title order={3} fz="md">
            {group.serviceName}
          </Title>
          <Text size="sm" data-testid="dispatch-totals">
            {t('dispatch.totals', { orders: String(group.totals.orders), places: String(group.totals.places), weight: kilograms(group.totals.weightGrams, language) })}
          </Text>
          <Text size="xs" c="dimmed">
            {t('dispatch.actNumber', { number: group.nextActNumber })}
          </Text>
        </Stack>
        <Group gap="xs">
          <PrintLabelsButton size="sm" variant="default" orderIds={orderIds} disabled={busy !== null} testId="dispatch-labels" />
          <Button size="sm" variant="default" onClick={() => void act()} loading={busy === 'act'} disabled={busy !== null} data-testid="dispatch-act">
            {t('print.act')}
          </Button>
          {takesCalls && (
            <Button size="sm" variant="default" onClick={() => setCallingCourier(true)} disabled={busy !== null} data-testid="dispatch-courier">
              {t('courier.open')}
            </Button>
          )}
          <Button size="sm" leftSection={<IconCheck size={16} />} onClick={() => setAsking(true)} disabled={busy !== null} data-testid="dispatch-hand-over">
            {t('dispatch.handOver')}
          </Button>
        </Group>
      </Group>
      {group.formsBatches && (
        <Box mb="sm">
          <FormBatches group={group} disabled={busy !== null} />
        </Box>
      )}
      <Table striped withTableBorder fz="sm" data-testid="dispatch-orders">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('dispatch.col.number')}</Table.Th>
            <Table.Th>{t('dispatch.col.providerNumber')}</Table.Th>
            <Table.Th>{t('dispatch.col.recipient')}</Table.Th>
            <Table.Th ta="right">{t('dispatch.col.places')}</Table.Th>
            <Table.Th ta="right">{t('dispatch.col.weight')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {group.orders.map((o) => (
            <Table.Tr key={o.orderId} data-testid="dispatch-order" data-order-id={o.orderId}>
              <Table.Td>{o.clientNumber}</Table.Td>
              <Table.Td className="sd-numeric">{o.providerNumber}</Table.Td>
              <Table.Td>
                {o.recipientName}
                {o.recipientCity && (
                  <Badge variant="light" color="gray" ml="xs" size="sm">
                    {o.recipientCity}
                  </Badge>
                )}
              </Table.Td>
              <Table.Td ta="right">{o.places}</Table.Td>
              <Table.Td ta="right">{kilograms(o.weightGrams, language)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {callingCourier && <CourierCallDialog orderIds={groupOrderIds} onClose={() => setCallingCourier(false)} />}
      <ConfirmDialog
        opened={asking}
        title={t('dispatch.confirmTitle', { count: String(group.totals.orders), service: group.serviceName })}
        body={t('dispatch.confirmBody', { number: group.nextActNumber })}
        confirmLabel={t('dispatch.confirm')}
        keepLabel={t('dispatch.keep')}
        busy={busy === 'handOver'}
        onConfirm={() => void handOver()}
        onClose={() => setAsking(false)}
        testId="dispatch-confirm"
      />
    </Paper>
  );
}

import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { DayInput } from '../../components/day-input';
import { useCallback, useEffect, useState } from 'react';
import type { DispatchGroup, PostalBatchInfo } from '../../../shared/contract/dispatch';
import { errorTitle, fieldMessage } from '../../i18n/error-messages';
import type { Translate } from '../../i18n/types';
import { useT } from '../../i18n/use-t';
import { toastRefusal, useToastStore } from '../../stores/toast-store';
import { getTransport } from '../../transport/current';
import { printActs, printLabels } from '../orders/print-files';
import { defaultSendingDate } from './sending-date';

/** In a group whose service forms batches (Russian Post): its waiting orders into batches for a sending date. */
export function FormBatches({ group, disabled }: { group: DispatchGroup; disabled: boolean }) {
  const t = useT();
  const [date, setDate] = useState(() => defaultSendingDate());
  const [busy, setBusy] = useState(false);
  const form = async () => {
    setBusy(true);
    const answer = await getTransport().invoke('dispatch.formPostBatches', { providerKey: group.providerKey, orderIds: group.orders.map((o) => o.orderId), sendingDate: date });
    setBusy(false);
    if (!answer.ok) {
      const failure = answer.error;
      // A refused field (a sending date already past in Moscow) says why in the person's language.
      const message = (tr: Translate) => (failure.errors?.length ? failure.errors.map((e) => fieldMessage(e, tr)).join('\n') : errorTitle(failure, tr));
      toastRefusal(failure, { title: (tr) => tr('dispatch.batches.failed'), message });
      return;
    }
    const { batches, refused } = answer.value;
    useToastStore.getState().push({
      tone: refused.length ? 'info' : 'success',
      title: (tr) => tr('dispatch.batches.formed', { count: String(batches.length) }),
      message: refused.length ? (tr) => `${tr('dispatch.batches.refused', { count: String(refused.length) })}\n${refused.map((r) => fieldMessage(r, tr)).join('\n')}` : undefined,
    });
  };
  return (
    <Group gap="xs" align="flex-end" data-testid="dispatch-batch-form">
      <DayInput size="sm" label={t('dispatch.batches.date')} value={date || null} onChange={(v) => setDate(v ?? '')} clearable={false} data-testid="dispatch-batch-date" />
      <Button size="sm" variant="default" onClick={() => void form()} loading={busy} disabled={disabled || !date} data-testid="dispatch-form-batches">
        {t('dispatch.batches.form')}
      </Button>
    </Group>
  );
}

/** The batches a postal service formed: each checked in once (Ф103 sent), its parcels' Ф7/Ф112 and its Ф103 register printed. */
export function PostalBatchesCard() {
  const t = useT();
  const [batches, setBatches] = useState<PostalBatchInfo[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const load = useCallback(async () => {
    const answer = await getTransport().invoke('dispatch.postBatches', {});
    if (answer.ok) setBatches(answer.value.batches);
  }, []);
  useEffect(() => {
    void load();
    return getTransport().onEvent((event) => {
      if (event.type === 'orders.changed') void load();
    });
  }, [load]);

  const run = async (key: string, work: () => Promise<unknown>) => {
    setBusy(key);
    await work();
    setBusy(null);
    void load();
  };
  const checkIn = (batch: PostalBatchInfo) =>
    run(`checkIn-${batch.id}`, async () => {
      const answer = await getTransport().invoke('dispatch.checkInPostBatch', { batchId: batch.id });
      if (!answer.ok) {
        const failure = answer.error;
        toastRefusal(failure, { title: (tr) => tr('dispatch.batches.failed'), message: (tr) => errorTitle(failure, tr) });
      }
    });

  if (!batches.length) return null;
  return (
    <Paper withBorder radius="md" p="md" data-testid="postal-batches">
      <Title order={3} fz="md" mb="sm">
        {t('dispatch.batches.title')}
      </Title>
      <Stack gap="xs">
        {batches.map((b) => (
          <Group key={b.id} justify="space-between" wrap="wrap" gap="xs" data-testid="postal-batch" data-batch={b.name} data-checked-in={b.checkedIn ? 'true' : 'false'}>
            <Stack gap={0}>
              <Text size="sm">{t('dispatch.batches.row', { name: b.name, mailType: b.mailType, date: b.sendingDate, count: String(b.orderIds.length) })}</Text>
              <Text size="xs" c="dimmed">
                {b.checkedIn ? t('dispatch.batches.checkedIn', { at: b.checkedIn.replace('T', ' ').slice(0, 16) }) : t('dispatch.batches.notCheckedIn')}
              </Text>
            </Stack>
            <Group gap="xs">
              <Button size="xs" variant="default" disabled={busy !== null} loading={busy === `forms-${b.id}`} onClick={() => void run(`forms-${b.id}`, () => printLabels(b.orderIds))} data-testid="postal-batch-forms">
                {t('dispatch.batches.forms')}
              </Button>
              {!b.checkedIn && (
                <Button size="xs" disabled={busy !== null} loading={busy === `checkIn-${b.id}`} onClick={() => void checkIn(b)} data-testid="postal-batch-checkin">
                  {t('dispatch.batches.checkIn')}
                </Button>
              )}
              <Button size="xs" variant="default" disabled={busy !== null || !b.checkedIn} loading={busy === `register-${b.id}`} onClick={() => void run(`register-${b.id}`, () => printActs(b.orderIds))} data-testid="postal-batch-register">
                {t('dispatch.batches.register')}
              </Button>
            </Group>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}

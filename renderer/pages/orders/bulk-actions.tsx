import { Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import type { BulkResult, bulkActions } from '../../../shared/contract/bulk';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { errorTitle } from '../../i18n/error-messages';
import { useFormat, useLanguage, useT } from '../../i18n/use-t';
import { listFilterOf, useOrdersStore } from '../../stores/orders-store';
import { toastRefusal, useToastStore } from '../../stores/toast-store';
import { getTransport } from '../../transport/current';
import { CourierCallDialog } from '../courier/courier-call-dialog';
import { BulkResultDialog, type ListedOrder } from './bulk-result-dialog';
import { downloadBase64 } from './download-file';
import { PrintLabelsButton } from './print-labels-button';

type BulkAction = (typeof bulkActions)[number];
/** Actions that cannot be taken back ask first. */
const confirmed: Partial<Record<BulkAction, { title: 'ordersList.bulk.confirmCancelTitle' | 'ordersList.bulk.confirmDeleteTitle'; body: 'ordersList.bulk.confirmCancelBody' | 'ordersList.bulk.confirmDeleteBody'; confirm: 'ordersList.bulk.confirmCancel' | 'ordersList.bulk.confirmDelete' }>> = {
  cancel: { title: 'ordersList.bulk.confirmCancelTitle', body: 'ordersList.bulk.confirmCancelBody', confirm: 'ordersList.bulk.confirmCancel' },
  delete: { title: 'ordersList.bulk.confirmDeleteTitle', body: 'ordersList.bulk.confirmDeleteBody', confirm: 'ordersList.bulk.confirmDelete' },
};
const actionLabels = {
  submit: 'ordersList.bulk.submit',
  cancel: 'ordersList.bulk.cancel',
  refresh: 'ordersList.bulk.refresh',
  delete: 'ordersList.bulk.delete',
} as const satisfies Record<BulkAction, string>;

/** Number and status of each loaded order, to name orders in the result. */
function loadedNumbers(): Map<string, ListedOrder> {
  const numbers = new Map<string, ListedOrder>();
  for (const rows of Object.values(useOrdersStore.getState().windows)) for (const r of rows) numbers.set(r.orderId, { clientNumber: r.clientNumber, statusKey: r.statusKey });
  return numbers;
}

/** The checked orders in the order the list shows them (labels come out in that order), then any not loaded. */
function selectedInListOrder(): string[] {
  const { selected, windows } = useOrdersStore.getState();
  const shown = Object.entries(windows)
    .sort(([a], [b]) => Number(a) - Number(b))
    .flatMap(([, rows]) => rows.map((r) => r.orderId))
    .filter((id) => selected.has(id));
  const seen = new Set(shown);
  return [...shown, ...[...selected].filter((id) => !seen.has(id))];
}

/**
 * The bar over the table while orders are checked: how many, the actions (through orders.bulk, one
 * result per order) and clearing the selection. After an action the list reloads and the orders that
 * failed stay checked, so the user can look at them or try again.
 */
export function BulkActionsBar() {
  const t = useT();
  const format = useFormat();
  const selected = useOrdersStore((s) => s.selected);
  const clearSelection = useOrdersStore((s) => s.clearSelection);
  const [asking, setAsking] = useState<BulkAction | undefined>();
  const [running, setRunning] = useState<BulkAction | undefined>();
  const [result, setResult] = useState<BulkResult | undefined>();
  const [numbers, setNumbers] = useState<ReadonlyMap<string, ListedOrder>>(new Map());
  const [courierFor, setCourierFor] = useState<string[] | undefined>();

  if (selected.size === 0 && !result && !courierFor) return null;

  const run = async (action: BulkAction) => {
    setAsking(undefined);
    setRunning(action);
    const ids = [...useOrdersStore.getState().selected];
    setNumbers(loadedNumbers());
    const answer = await getTransport().invoke('orders.bulk', { action, orderIds: ids });
    setRunning(undefined);
    if (!answer.ok) {
      toastRefusal(answer.error, { title: (tr) => tr('ordersList.bulk.failed'), message: (tr) => errorTitle(answer.error, tr) });
      return;
    }
    setResult(answer.value);
    useOrdersStore.getState().setSelected(answer.value.results.filter((r) => !r.ok).map((r) => r.orderId));
    await useOrdersStore.getState().load();
  };

  const confirm = asking ? confirmed[asking] : undefined;
  return (
    <>
      {selected.size > 0 && (
        <Group
          px="md"
          py={6}
          gap="xs"
          role="toolbar"
          aria-label={t('ordersList.bulk.label')}
          data-testid="bulk-bar"
          style={{ background: 'var(--mantine-primary-color-light)', borderTop: '1px solid var(--mantine-color-default-border)' }}
        >
          <Text size="sm" fw={600} mr="sm" data-testid="selected-count">
            {t('ordersList.selected', { count: format.count(selected.size) })}
          </Text>
          {(Object.keys(actionLabels) as BulkAction[]).map((action) => (
            <Button
              key={action}
              size="xs"
              variant={action === 'cancel' || action === 'delete' ? 'light' : 'default'}
              color={action === 'cancel' || action === 'delete' ? 'red' : undefined}
              loading={running === action}
              disabled={running !== undefined && running !== action}
              onClick={() => (confirmed[action] ? setAsking(action) : void run(action))}
              data-testid={`bulk-${action}`}
            >
              {t(actionLabels[action])}
            </Button>
          ))}
          <PrintLabelsButton size="xs" variant="default" orderIds={selectedInListOrder} disabled={running !== undefined} testId="bulk-labels" />
          <ExportButton />
          <Button size="xs" variant="default" onClick={() => setCourierFor([...useOrdersStore.getState().selected])} data-testid="bulk-courier">
            {t('courier.open')}
          </Button>
          <MarkSeenButton />
          <Button size="xs" variant="subtle" color="gray" onClick={clearSelection} ml="auto" data-testid="bulk-clear">
            {t('ordersList.bulk.clear')}
          </Button>
        </Group>
      )}
      {confirm && asking && (
        <ConfirmDialog
          opened
          title={t(confirm.title)}
          body={t(confirm.body, { count: format.count(selected.size) })}
          confirmLabel={t(confirm.confirm)}
          keepLabel={t('ordersList.bulk.keep')}
          onConfirm={() => void run(asking)}
          onClose={() => setAsking(undefined)}
          testId="bulk-confirm"
        />
      )}
      <BulkResultDialog result={result} numbers={numbers} onClose={() => setResult(undefined)} />
      {courierFor && <CourierCallDialog orderIds={courierFor} onClose={() => setCourierFor(undefined)} />}
    </>
  );
}

/** In the attention view: the checked orders leave it until their status changes again. */
function MarkSeenButton() {
  const t = useT();
  const attentionView = useOrdersStore((s) => s.filter.attention);
  const [busy, setBusy] = useState(false);
  if (!attentionView) return null;
  const markSeen = async () => {
    setBusy(true);
    const answer = await getTransport().invoke('orders.markSeen', { orderIds: [...useOrdersStore.getState().selected] });
    setBusy(false);
    if (!answer.ok) {
      toastRefusal(answer.error, { title: (tr) => tr('ordersList.bulk.failed'), message: (tr) => errorTitle(answer.error, tr) });
      return;
    }
    const { seen } = answer.value;
    useToastStore.getState().push({ tone: 'success', title: (tr) => tr('attention.markedSeen', { count: seen }) });
    useOrdersStore.getState().clearSelection();
    await useOrdersStore.getState().load();
  };
  return (
    <Button size="xs" variant="light" color="green" loading={busy} onClick={() => void markSeen()} title={t('attention.markSeenHint')} data-testid="bulk-mark-seen">
      {t('attention.markSeen')}
    </Button>
  );
}

/**
 * "Export to Excel": the checked orders, or when none are checked every order the list's search and
 * filters show. The workbook is downloaded under the name the core gave it.
 */
export function ExportButton() {
  const t = useT();
  const format = useFormat();
  const language = useLanguage();
  const selectedCount = useOrdersStore((s) => s.selected.size);
  const [busy, setBusy] = useState(false);

  const exportXlsx = async () => {
    setBusy(true);
    const state = useOrdersStore.getState();
    const answer = await getTransport().invoke(
      'orders.exportXlsx',
      state.selected.size > 0 ? { orderIds: [...state.selected], lang: language } : { filter: listFilterOf(state), lang: language },
    );
    setBusy(false);
    if (!answer.ok) {
      toastRefusal(answer.error, { title: (tr) => tr('ordersList.exportFailed'), message: (tr) => errorTitle(answer.error, tr) });
      return;
    }
    downloadBase64(answer.value.fileName, answer.value.base64);
    const { fileName, rows } = answer.value;
    useToastStore.getState().push({
      tone: 'success',
      title: (tr) => tr('ordersList.exported', { fileName }),
      message: (tr) => tr('ordersList.exportedRows', { count: format.count(rows) }),
    });
  };

  return (
    <Button
      size="xs"
      variant="default"
      loading={busy}
      onClick={() => void exportXlsx()}
      title={t(selectedCount > 0 ? 'ordersList.exportSelected' : 'ordersList.exportFiltered')}
      data-testid="export-xlsx"
    >
      {t('ordersList.export')}
    </Button>
  );
}

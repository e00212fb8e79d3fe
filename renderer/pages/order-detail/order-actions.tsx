import { Alert, Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import type { OrderView } from '../../../shared/schemas/order-detail';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { IconAlert, IconCopy, IconTrash, IconX } from '../../components/icons';
import { errorHint, errorTitle, withOrderNumber } from '../../i18n/error-messages';
import { useT } from '../../i18n/use-t';
import { useOrderDetailStore } from '../../stores/order-detail-store';
import { useToastStore } from '../../stores/toast-store';
import { copyOrder, editOrder } from './edit-order';
import { useOrderViewStore, type OrderAction } from './order-view-store';
import { PrintLabelButton } from './print-label-button';

/**
 * Only what the order and its delivery service allow now (orders.get answers `actions`): cancel,
 * edit (and send again after a refusal), delete, print the service's label. Cancel and delete ask first.
 */
export function OrderActions({ view }: { view: OrderView }) {
  const t = useT();
  const busy = useOrderViewStore((s) => s.busy);
  const refused = useOrderViewStore((s) => s.actionError);
  const act = useOrderViewStore((s) => s.act);
  const closeDetail = useOrderDetailStore((s) => s.close);
  const [asking, setAsking] = useState<OrderAction | undefined>();
  const number = view.order.clientNumber;
  const actionError = refused && withOrderNumber(refused, number);
  // A refusal the core said by key is said alone, without the generic «В запросе есть ошибки» over it.
  const reason = actionError?.key ? errorHint(actionError, t) : undefined;
  const { actions } = view;
  const editable = actions.update;
  const resend = view.order.statusKey === 'uploadingError';

  const confirm = async () => {
    if (!asking) return;
    const action = asking;
    const done = await act(action);
    setAsking(undefined);
    if (!done) return;
    useToastStore.getState().push({ tone: 'success', title: (tr) => tr(action === 'cancel' ? 'detail.canceled' : 'detail.deleted', { number }) });
    if (action === 'delete') closeDetail();
  };

  return (
    <div data-testid="detail-actions">
      {!actions.cancel && !editable && !actions.delete && !actions.labels && (
        <Text fz="sm" c="dimmed" mb="xs" data-testid="detail-no-actions">
          {t('detail.action.none')}
        </Text>
      )}
      <Group gap="xs">
        {actions.labels && <PrintLabelButton orderId={view.order.orderId} disabled={busy !== undefined} />}
        {editable && (
          <Button variant={resend ? 'filled' : 'default'} onClick={() => editOrder(view)} disabled={busy !== undefined} data-testid="detail-edit">
            {resend ? t('detail.action.editResend') : t('detail.action.edit')}
          </Button>
        )}
        {actions.cancel && (
          <Button
            variant="light"
            color="red"
            leftSection={<IconX size={16} />}
            onClick={() => setAsking('cancel')}
            disabled={busy !== undefined}
            data-testid="detail-cancel"
          >
            {t('detail.action.cancel')}
          </Button>
        )}
        {actions.delete && (
          <Button
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={16} />}
            onClick={() => setAsking('delete')}
            disabled={busy !== undefined}
            data-testid="detail-delete"
          >
            {t('detail.action.delete')}
          </Button>
        )}
        <Button variant="default" leftSection={<IconCopy size={16} />} onClick={() => copyOrder(view)} disabled={busy !== undefined} data-testid="detail-copy-order">
          {t('detail.action.copy')}
        </Button>
      </Group>
      {actionError && (
        <Alert mt="sm" color="red" variant="light" icon={<IconAlert size={18} />} title={t('detail.actionFailed')} data-testid="detail-action-error">
          <Text fz="sm" fw={600}>
            {reason ?? errorTitle(actionError, t)}
          </Text>
          {!reason && errorHint(actionError, t) && <Text fz="sm">{errorHint(actionError, t)}</Text>}
        </Alert>
      )}
      <ConfirmDialog
        opened={asking !== undefined}
        title={asking === 'delete' ? t('detail.confirm.deleteTitle', { number }) : t('detail.confirm.cancelTitle', { number })}
        body={asking === 'delete' ? t('detail.confirm.deleteBody') : t('detail.confirm.cancelBody')}
        confirmLabel={asking === 'delete' ? t('detail.confirm.deleteYes') : t('detail.confirm.cancelYes')}
        keepLabel={t('detail.confirm.keep')}
        busy={busy !== undefined}
        onConfirm={() => void confirm()}
        onClose={() => setAsking(undefined)}
        testId="detail-confirm"
      />
    </div>
  );
}

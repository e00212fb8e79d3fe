import { Button } from '@mantine/core';
import { useState } from 'react';
import { IconPrinter } from '../../components/icons';
import { errorHint, errorTitle } from '../../i18n/error-messages';
import { useT } from '../../i18n/use-t';
import { useToastStore } from '../../stores/toast-store';
import { getTransport } from '../../transport/current';
import { downloadBase64 } from '../orders/download-file';

/** Asks the delivery service for the order's barcode label and hands the PDF over for printing. */
export function PrintLabelButton({ orderId, disabled }: { orderId: string; disabled: boolean }) {
  const t = useT();
  const [printing, setPrinting] = useState(false);
  const print = async () => {
    setPrinting(true);
    const answer = await getTransport().invoke('orders.labels', { orderIds: [orderId] });
    setPrinting(false);
    if (answer.ok && answer.value.base64) downloadBase64(answer.value.fileName, answer.value.base64, answer.value.contentType);
    else if (answer.ok) {
      const why = answer.value.failedOrders.map((f) => f.message).join('; ');
      useToastStore.getState().push({ tone: 'error', title: (tr) => tr('detail.labelFailed'), message: () => why });
    } else {
      const error = answer.error;
      useToastStore.getState().push({ tone: 'error', title: (tr) => tr('detail.labelFailed'), message: (tr) => [errorTitle(error, tr), errorHint(error, tr)].filter(Boolean).join('. ') });
    }
  };
  return (
    <Button variant="default" leftSection={<IconPrinter size={16} />} loading={printing} disabled={disabled} onClick={() => void print()} data-testid="detail-label">
      {t('detail.action.label')}
    </Button>
  );
}

import { PrintLabelsButton } from '../orders/print-labels-button';

/** The order's labels (one per place), printed the way Settings → Печать says. */
export function PrintLabelButton({ orderId, disabled }: { orderId: string; disabled: boolean }) {
  return <PrintLabelsButton variant="default" disabled={disabled} orderIds={() => [orderId]} testId="detail-label" />;
}

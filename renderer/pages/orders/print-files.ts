import type { PrintedFileAnswer } from '../../../shared/contract/labels';
import { errorTitle, fieldMessage } from '../../i18n/error-messages';
import { labelOptions, usePrintSettingsStore } from '../../stores/print-settings-store';
import { toastRefusal, useToastStore, type Toast } from '../../stores/toast-store';
import { getTransport } from '../../transport/current';
import type { Result } from '../../../shared/result';
import type { ErrorBody } from '../../../shared/errors';
import { downloadBase64 } from './download-file';

const push = (toast: Omit<Toast, 'id'>): number => useToastStore.getState().push(toast, toast.tone === 'error' ? 12_000 : 6000);
const failed = (error: ErrorBody) => toastRefusal(error, { title: (tr) => tr('print.failed'), message: (tr) => errorTitle(error, tr) }, 12_000);

/**
 * Hands a made PDF or ZPL file to the shop: in the desktop app a PDF goes straight to the chosen printer
 * (silently when the owner chose so); in the browser it opens in a new tab, where the browser prints it.
 * A ZPL file is saved for the label printer's own tool. Orders left out are named in a warning.
 */
export async function deliverPrintedFile(answer: Result<PrintedFileAnswer>): Promise<boolean> {
  if (!answer.ok) {
    failed(answer.error);
    return false;
  }
  const { base64, fileName, contentType, failedOrders } = answer.value;
  if (failedOrders.length > 0) {
    push({
      tone: base64 ? 'info' : 'error',
      title: (tr) => tr('print.someFailed', { count: String(failedOrders.length) }),
      message: (tr) => failedOrders.map((f) => fieldMessage(f, tr)).join('\n'),
    });
  }
  if (!base64) return false;
  if (contentType !== 'application/pdf') {
    downloadBase64(fileName, base64, contentType);
    push({ tone: 'success', title: (tr) => tr('print.zplSaved') });
    return true;
  }
  const printer = getTransport().printer;
  if (printer) {
    const { printer: deviceName, silent } = usePrintSettingsStore.getState();
    const printed = await printer.print({ base64, deviceName, silent });
    if (!printed.ok) {
      failed(printed.error);
      return false;
    }
    push({ tone: 'success', title: (tr) => tr('print.printed') });
    return true;
  }
  openPdf(fileName, base64);
  return true;
}

/** Browser mode: the PDF in a new tab (its viewer prints); a blocked pop-up falls back to a download. */
function openPdf(fileName: string, base64: string): void {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' }));
  const tab = window.open(url, '_blank');
  if (!tab) {
    downloadBase64(fileName, base64, 'application/pdf');
    push({ tone: 'info', title: (tr) => tr('print.popupBlocked') });
  } else push({ tone: 'success', title: (tr) => tr('print.opened') });
  setTimeout(() => URL.revokeObjectURL(url), 5 * 60_000);
}

/** "Печать этикеток": the labels of these orders, in this order, as Settings → Печать says. */
export async function printLabels(orderIds: string[]): Promise<boolean> {
  const options = labelOptions(usePrintSettingsStore.getState());
  return deliverPrintedFile(await getTransport().invoke('orders.labels', { orderIds, ...options }));
}

/** The handover act(s) of these orders, one per delivery service, as one PDF. */
export async function printActs(orderIds: string[]): Promise<boolean> {
  return deliverPrintedFile(await getTransport().invoke('orders.waybills', { orderIds }));
}

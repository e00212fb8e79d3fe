import type { LabelFormat, LabelRequest } from '../../../shared/contract/labels';
import type { CallContext } from '../companies/company-service';
import type { Logger } from '../logger';
import { loadPrintFonts } from '../print/fonts';
import type { PrintedFile } from '../print/file-links';
import { orderLabels, type PrintableOrder } from '../print/label';
import { labelNames } from '../print/label-names';
import { labelsPdf } from '../print/label-pdf';
import { labelsZpl } from '../print/label-zpl';
import { joinZpl, mergePdfs } from '../print/merge';
import { readPrintableOrders, runsBy, toShipment, type FailedOrder } from '../print/printable-orders';
import { serviceFailure } from '../providers/service-failure';
import type { ProviderRegistry } from '../providers/registry';
import type { OrdersStore } from '../store/orders/orders-store';
import type { ReferenceStore } from '../store/reference/reference-store';

/** Most labels one request may ask for (CDEK's print forms take at most 100 orders). */
export const maxLabelsPerRequest = 100;

/** What a print job made: the file (none when no order could be printed) and the orders left out, with why. */
export interface PrintOutcome {
  file: PrintedFile | null;
  printed: number;
  failedOrders: FailedOrder[];
}

export const contentTypes: Record<LabelFormat, string> = { pdf: 'application/pdf', zpl: 'text/plain; charset=utf-8' };

/** Who makes an order's label: its delivery service where it prints its own, ShipDesk otherwise. */
const drawnHere = '';
const labelSource = (providers: ProviderRegistry, providerKey: string) => (typeof providers.get(providerKey)?.labels === 'function' ? providerKey : drawnHere);



/**
 * Labels of registered orders as one PDF or one ZPL stream, in the asked order: a service that prints
 * its own (CDEK's print forms, the upstream aggregator) is asked now, the shop standing at the printer;
 * every other service's label is drawn here. An order that cannot be printed is left out with the reason.
 */
export function createLabelService(deps: { orders: OrdersStore; reference: ReferenceStore; providers: ProviderRegistry; resourcesDir: string; log: Logger }) {
  const fonts = () => loadPrintFonts(deps.resourcesDir);

  async function drawn(orders: PrintableOrder[], request: LabelRequest): Promise<Uint8Array> {
    const names = await labelNames(deps.reference, deps.providers, orders);
    const labels = orders.flatMap((o) => orderLabels(o, names.get(o.orderId)!));
    if (request.format === 'zpl') return Buffer.from(labelsZpl(labels), 'utf8');
    return labelsPdf(labels, request.size === 'A4' ? { kind: 'a4', startQuarter: request.startQuarter as 1 | 2 | 3 | 4 } : { kind: 'thermal' }, fonts());
  }

  return {
    async print(ctx: CallContext, request: LabelRequest): Promise<PrintOutcome> {
      const { orders, failed } = await readPrintableOrders(deps.orders, ctx, request.orderIds);
      const parts: Uint8Array[] = [];
      let printed = 0;
      for (const run of runsBy(orders, (o) => labelSource(deps.providers, o.providerKey))) {
        if (run.key === drawnHere) {
          parts.push(await drawn(run.items, request));
          printed += run.items.length;
          continue;
        }
        const provider = deps.providers.get(run.key)!;
        try {
          parts.push(await provider.labels!(run.items.map((o) => toShipment(ctx.companyId, o)), request.format));
          printed += run.items.length;
        } catch (error) {
          const reason = serviceFailure(provider.info.name, error);
          if (reason === null) throw error;
          deps.log.warn(`labels of ${run.items.length} ${run.key} orders failed: ${reason.message}`);
          for (const o of run.items) failed.push({ orderId: String(o.orderId), ...reason });
        }
      }
      if (parts.length === 0) return { file: null, printed: 0, failedOrders: failed };
      const bytes = request.format === 'zpl' ? joinZpl(parts) : await mergePdfs(parts);
      const first = orders[0];
      const base = printed === 1 ? `label-${first.clientNumber}` : `labels-${printed}`;
      return {
        file: { bytes, fileName: `${base.replace(/[^\w.-]+/g, '_')}.${request.format}`, contentType: contentTypes[request.format] },
        printed,
        failedOrders: failed,
      };
    },
  };
}

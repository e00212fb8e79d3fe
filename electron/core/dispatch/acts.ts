import type { CallContext } from '../companies/company-service';
import type { Clock } from '../clock';
import { actsPdf, type ActData, type ActRow } from '../print/act-pdf';
import type { PrintedFile } from '../print/file-links';
import { loadPrintFonts } from '../print/fonts';
import type { PrintableOrder } from '../print/label';
import { readPrintableOrders, toShipment, type FailedOrder } from '../print/printable-orders';
import { serviceFailure } from '../providers/service-failure';
import type { ProviderRegistry } from '../providers/registry';
import type { CompanyDetails } from '../../../shared/schemas/settings';
import type { OrdersStore } from '../store/orders/orders-store';

/** One delivery service's act and the orders on it. */
export interface ServiceAct {
  providerKey: string;
  orderIds: string[];
  file: PrintedFile;
}

export const actRow = (o: PrintableOrder): ActRow => ({
  clientNumber: o.clientNumber,
  providerNumber: o.providerNumber,
  places: o.order.places.length,
  weightGrams: o.order.places.reduce((sum, p) => sum + p.weight, 0),
  assessedKopecks: o.assessedKopecks,
  codKopecks: o.codKopecks,
});

/** The shop's lines on an act: its legal details as the settings hold them. */
export function shopDetails(company: CompanyDetails): ActData['shop'] {
  const ids = [company.inn && `ИНН ${company.inn}`, company.kpp && `КПП ${company.kpp}`, company.ogrn && `ОГРН ${company.ogrn}`].filter(Boolean).join(', ');
  const contact = [company.phone && `тел. ${company.phone}`, company.email, company.contactName].filter(Boolean).join(', ');
  return { name: company.name, details: [ids, company.legalAddress ?? '', contact].filter(Boolean) };
}

/**
 * Handover acts («акт приёма-передачи»): one per delivery service for the asked orders. A service with its
 * own (CDEK's waybills print form, the upstream aggregator's POST /orders/waybills) is asked for it; for
 * the others ShipDesk draws one in Russian (print-forms.md). A drawn act's number is the handover's when
 * the orders were marked handed over together, otherwise the number their handover will take today.
 */
export function createActService(deps: { store: OrdersStore; clock: Clock; providers: ProviderRegistry; resourcesDir: string; company: (ctx: CallContext) => Promise<CompanyDetails> }) {
  async function actNumber(ctx: CallContext, providerKey: string, orderIds: number[]): Promise<{ number: string; date: number }> {
    const handovers = await deps.store.handoversOf(ctx.companyId, orderIds);
    const [only] = handovers;
    if (handovers.length === 1 && only !== null) return { number: only.number, date: only.handedAt };
    const now = deps.clock.now();
    return { number: await deps.store.nextHandoverNumber(ctx.companyId, providerKey, now), date: now };
  }

  return {
    async acts(ctx: CallContext, orderIds: string[]): Promise<{ acts: ServiceAct[]; failedOrders: FailedOrder[] }> {
      const { orders, failed } = await readPrintableOrders(deps.store, ctx, orderIds);
      const byService = new Map<string, PrintableOrder[]>();
      for (const o of orders) byService.set(o.providerKey, [...(byService.get(o.providerKey) ?? []), o]);
      const shop = shopDetails(await deps.company(ctx));
      const fonts = loadPrintFonts(deps.resourcesDir);
      const acts: ServiceAct[] = [];
      for (const [providerKey, group] of byService) {
        const carrier = deps.providers.get(providerKey);
        const orderIds = group.map((o) => String(o.orderId));
        if (carrier?.handoverAct) {
          try {
            const bytes = await carrier.handoverAct(group.map((o) => toShipment(ctx.companyId, o)));
            acts.push({ providerKey, orderIds, file: { bytes, fileName: `act-${providerKey}.pdf`.replace(/[^\w.-]+/g, '_'), contentType: 'application/pdf' } });
          } catch (error) {
            const reason = serviceFailure(carrier.info.name, error);
            if (reason === null) throw error;
            failed.push(...orderIds.map((orderId) => ({ orderId, ...reason })));
          }
          continue;
        }
        const { number, date } = await actNumber(ctx, providerKey, group.map((o) => o.orderId));
        const data: ActData = {
          number,
          date,
          city: group[0].order.sender.city ?? null,
          shop,
          service: carrier?.info.name ?? providerKey,
          rows: group.map(actRow),
        };
        const bytes = await actsPdf([data], fonts);
        acts.push({ providerKey, orderIds, file: { bytes, fileName: `act-${number}.pdf`.replace(/[^\w.-]+/g, '_'), contentType: 'application/pdf' } });
      }
      return { acts, failedOrders: failed };
    },
  };
}
export type ActService = ReturnType<typeof createActService>;

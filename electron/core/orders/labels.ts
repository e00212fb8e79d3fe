import { ErrorCode } from '../../../shared/errors';
import type { CallContext } from '../companies/company-service';
import { AppError, orderNotFound, validationError } from '../errors';
import { ProviderRejectedError, ProviderUnavailableError, type TrackedShipment } from '../providers/provider';
import type { ProviderRegistry } from '../providers/registry';
import type { Db } from '../store/database';
import { notSupported } from './order-lifecycle';

/** Most labels one request may ask for (CDEK's print forms take at most 100 orders). */
export const maxLabelsPerRequest = 100;

/** True when the delivery service prints barcode labels for its registered orders. */
export const printsLabels = (providers: ProviderRegistry, providerKey: string) => typeof providers.get(providerKey)?.labels === 'function';

/**
 * Barcode labels of registered orders as one PDF, made by their delivery service (CDEK's print forms).
 * All orders must be registered with one service that prints labels; the network call happens now,
 * because the shop is standing at the printer.
 */
export function createLabelService(deps: { db: Db; providers: ProviderRegistry }) {
  return {
    async print(ctx: CallContext, orderIds: string[]): Promise<{ fileName: string; base64: string; orders: number }> {
      // One read for all the orders asked (at most 100), scoped to the caller's company.
      const ids = orderIds.map(Number);
      const valid = ids.filter((id) => Number.isSafeInteger(id) && id > 0);
      const rows = valid.length
        ? await deps.db.selectFrom('orders').selectAll().where('company_id', '=', ctx.companyId).where('state', '!=', 'deleted').where('id', 'in', valid).execute()
        : [];
      const byId = new Map(rows.map((r) => [r.id, r]));
      const shipments: TrackedShipment[] = [];
      const keys = new Set<string>();
      for (const [i, raw] of orderIds.entries()) {
        const row = byId.get(ids[i]);
        if (!row) throw orderNotFound(raw);
        if (row.provider_number === null || row.state !== 'active')
          throw validationError([{ field: `orderIds.${i}`, message: `order ${raw} is not registered with its delivery service, so it has no label yet` }]);
        keys.add(row.provider_key);
        shipments.push({
          providerNumber: row.provider_number,
          additionalProviderNumber: row.additional_provider_number,
          request: { companyId: row.company_id, orderId: row.id, clientNumber: row.client_number, order: JSON.parse(row.payload) },
        });
      }
      if (keys.size !== 1) throw validationError([{ field: 'orderIds', message: 'labels are printed for the orders of one delivery service at a time' }]);
      const [providerKey] = keys;
      const provider = deps.providers.get(providerKey);
      if (!provider?.labels) throw notSupported(`${providerKey} does not print labels`);
      try {
        const pdf = await provider.labels(shipments);
        const fileName = shipments.length === 1 ? `label-${shipments[0].request.clientNumber}.pdf` : `labels-${shipments.length}.pdf`;
        return { fileName: fileName.replace(/[^\w.-]+/g, '_'), base64: Buffer.from(pdf).toString('base64'), orders: shipments.length };
      } catch (error) {
        if (error instanceof ProviderRejectedError) throw new AppError(400, { code: ErrorCode.general, message: 'Refused by the delivery service', description: error.message });
        if (error instanceof ProviderUnavailableError)
          throw new AppError(503, { code: ErrorCode.internal, message: 'Delivery service unavailable', description: `${error.message}. Try again in a minute.` });
        throw error;
      }
    },
  };
}

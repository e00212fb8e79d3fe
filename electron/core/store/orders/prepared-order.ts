import { toKopecks } from '../../../../shared/money';
import type { OrderCreate } from '../../../../shared/schemas/order';

/**
 * An order's columns as the orders store keeps them beside its payload (for lists, searches and the outbox),
 * worked out once: by the store on every create and change, and by an import while its file is still being
 * read (so the payload object can go, and the batch write only copies values).
 */
export interface PreparedOrder {
  clientNumber: string;
  providerKey: string;
  providerConnectId: number | null;
  recipientName: string;
  recipientPhone: string;
  recipientCity: string | null;
  codKopecks: number;
  assessedKopecks: number;
  /** The delivery prices the payload names (cost.quotedDeliveryCost, cost.deliveryCost), for the list and the export. */
  quotedDeliveryKopecks: number | null;
  deliveryKopecks: number | null;
  /** The normalized payload, as the store keeps it. */
  json: string;
}

const kopecksOrNull = (rubles: number | undefined | null) => (typeof rubles === 'number' ? toKopecks(rubles) : null);

export function prepareOrder(payload: OrderCreate): PreparedOrder {
  return {
    clientNumber: payload.order.clientNumber,
    providerKey: payload.order.providerKey,
    providerConnectId: payload.order.providerConnectId ?? null,
    recipientName: payload.recipient.contactName,
    recipientPhone: payload.recipient.phone,
    recipientCity: payload.recipient.city ?? null,
    codKopecks: toKopecks(payload.cost.codCost),
    assessedKopecks: toKopecks(payload.cost.assessedCost),
    quotedDeliveryKopecks: kopecksOrNull(payload.cost.quotedDeliveryCost),
    deliveryKopecks: kopecksOrNull(payload.cost.deliveryCost),
    json: JSON.stringify(payload),
  };
}

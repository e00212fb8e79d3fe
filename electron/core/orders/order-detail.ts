import type { Selectable } from 'kysely';
import type { OrderDetail } from '../../../shared/schemas/order-detail';
import type { OrderCreate, Place } from '../../../shared/schemas/order';
import type { StatusKey } from '../../../shared/status-keys';
import { formatTimestamp } from '../../../shared/time';
import { itemKey } from '../providers/provider';
import type { OrdersTable } from '../store/schema';

/**
 * Spreads the service's "bought out" counts (by item key) over the order's items in order: an item gets
 * at most its own quantity, so two lines with the same articul share the count. With no report, items
 * carry no quantityDelivered at all (unknown, not zero).
 */
export function withQuantityDelivered(places: Place[], delivered: Record<string, number> | null): OrderDetail['places'] {
  if (!delivered) return places;
  const left = new Map(Object.entries(delivered));
  return places.map((place) => ({
    ...place,
    items: place.items.map((item) => {
      const key = itemKey(item);
      const available = left.get(key) ?? 0;
      const taken = Math.max(0, Math.min(item.quantity, available));
      left.set(key, available - taken);
      return { ...item, quantityDelivered: taken };
    }),
  }));
}

/** GET /orders/{orderId} from the stored row. */
export function orderDetail(row: Selectable<OrdersTable>): OrderDetail {
  const payload = JSON.parse(row.payload) as OrderCreate;
  const delivered = row.quantity_delivered ? (JSON.parse(row.quantity_delivered) as Record<string, number>) : null;
  return {
    order: {
      orderId: String(row.id),
      providerNumber: row.provider_number ?? '',
      additionalProviderNumber: row.additional_provider_number ?? '',
      returnProviderNumber: row.return_provider_number ?? '',
      barcode: row.barcode ?? '',
      trackingUrl: row.tracking_url ?? '',
      ...payload.order,
      statusKey: row.status_key as StatusKey,
      created: formatTimestamp(row.created_at),
    },
    cost: payload.cost,
    sender: payload.sender,
    recipient: payload.recipient,
    ...(payload.returnAddress ? { returnAddress: payload.returnAddress } : {}),
    places: withQuantityDelivered(payload.places, delivered),
    extraParams: payload.extraParams ?? {},
  };
}

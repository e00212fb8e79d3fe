import type { OrderDetail } from '../../../shared/schemas/order-detail';
import type { Place } from '../../../shared/schemas/order';
import type { StatusKey } from '../../../shared/status-keys';
import { formatTimestamp } from '../../../shared/time';
import { itemKey } from '../providers/provider';
import type { StoredOrder } from '../store/orders/orders-store';

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

/** GET /orders/{orderId} from the stored order. */
export function orderDetail(stored: StoredOrder): OrderDetail {
  const { payload } = stored;
  return {
    order: {
      orderId: String(stored.id),
      providerNumber: stored.providerNumber ?? '',
      additionalProviderNumber: stored.additionalProviderNumber ?? '',
      returnProviderNumber: stored.returnProviderNumber ?? '',
      barcode: stored.barcode ?? '',
      trackingUrl: stored.trackingUrl ?? '',
      ...payload.order,
      statusKey: stored.statusKey as StatusKey,
      created: formatTimestamp(stored.createdAt),
    },
    cost: payload.cost,
    sender: payload.sender,
    recipient: payload.recipient,
    ...(payload.returnAddress ? { returnAddress: payload.returnAddress } : {}),
    places: withQuantityDelivered(payload.places, stored.quantityDelivered),
    extraParams: payload.extraParams ?? {},
  };
}

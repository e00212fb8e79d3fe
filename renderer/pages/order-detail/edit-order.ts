import type { OrderView } from '../../../shared/schemas/order-detail';
import { valuesFromPayload } from '../../order-form/form-values';
import { useOrderFormStore } from '../../stores/order-form-store';

/**
 * Opens the order form on the order's data, to change it and send it again (after the service
 * refused it, or where the service takes changes). The form reads the create payload's fields and
 * ignores what only the detail has (numbers, status, quantityDelivered).
 */
export function editOrder(view: OrderView): void {
  useOrderFormStore.getState().openForEdit(view.order.orderId, valuesFromPayload(view));
}

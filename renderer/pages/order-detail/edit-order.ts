import type { OrderView } from '../../../shared/schemas/order-detail';
import { toCreateInput, valuesFromPayload } from '../../order-form/form-values';
import { useOrderFormStore } from '../../stores/order-form-store';
import { createPayloadOf, withUnseenFields } from './unseen-fields';

/**
 * Opens the order form on the order's data, to change it and send it again (after the service
 * refused it, or where the service takes changes). What the form has no box for is kept and sent
 * along unchanged.
 */
export function editOrder(view: OrderView): void {
  const original = createPayloadOf(view);
  const values = valuesFromPayload(original);
  const seen = toCreateInput(values);
  useOrderFormStore.getState().openForEdit(view.order.orderId, values, (edited) => withUnseenFields(original, seen, edited));
}

/**
 * Opens a new order on this one's data (the same recipient, parcel and service again): a new number (the
 * next in turn is offered) and no delivery day, which belonged to the first parcel.
 */
export function copyOrder(view: OrderView): void {
  const values = valuesFromPayload(createPayloadOf(view));
  useOrderFormStore.getState().openWith({ ...values, order: { ...values.order, clientNumber: '', deliveryDate: '', deliveryTimeStart: '', deliveryTimeEnd: '' } });
}

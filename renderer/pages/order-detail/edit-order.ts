import type { OrderView } from '../../../shared/schemas/order-detail';

/** Whether the order form can take an existing order to edit (wired once the form store offers it). */
export function canEditInForm(): boolean {
  return false;
}

/** Opens the order form on the order's data, to change it and send it again. */
export function editOrder(_view: OrderView): void {}

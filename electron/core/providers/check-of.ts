import type { FieldError } from '../../../shared/errors';
import type { OrderCreate } from '../../../shared/schemas/order';

/**
 * A carrier's `check` from its `prepare`: the checks that need no call, run once for both uses (the order form's
 * check and the body sent at registration), of which `check` keeps only the field errors.
 */
export function checkOf(prepare: (order: OrderCreate) => Promise<{ errors: FieldError[] }>): (order: OrderCreate) => Promise<FieldError[]> {
  return async (order) => (await prepare(order)).errors;
}

import { orderCreateSchema, type OrderCreate } from '../../shared/schemas/order';
import { fieldAliases, toCreateInput, type OrderFormValues } from './form-values';
import { issuesToFieldErrors, type FieldErrors } from './zod-issues';

export interface OrderFormCheck {
  /** The parsed payload when the form is valid. */
  data?: OrderCreate;
  errors: FieldErrors;
}

/** Validates the form with the core's own schema and maps its issues to the form's fields. */
export function validateOrderForm(values: OrderFormValues): OrderFormCheck {
  const input = toCreateInput(values);
  const parsed = orderCreateSchema.safeParse(input);
  if (parsed.success) return { data: parsed.data, errors: {} };

  const errors: Record<string, string> = { ...issuesToFieldErrors(parsed.error.issues, input, fieldAliases) };
  // The schema checks the pickup point and the city in object-level refinements, which zod runs only
  // once every field of the object parses. The same two rules, applied early, so the user sees them
  // with the other errors instead of after fixing those. The form has no addressString, so the city
  // is what the rule asks for.
  if (values.order.deliveryType === '2' && values.order.pointOutId.trim() === '') {
    errors['order.pointOutId'] ??= 'is required when deliveryType = 2';
  }
  for (const group of ['recipient', 'sender'] as const) {
    if (values[group].city.trim() === '') errors[`${group}.city`] ??= 'city or addressString is required';
  }
  return { errors };
}

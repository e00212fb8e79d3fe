import type { Said } from '../i18n/error-messages';
import { orderCreateSchema, type OrderCreate } from '../../shared/schemas/order';
import { extraParamPath, fieldAliases, numberOf, toCreateInput, type OrderFormValues } from './form-values';
import { issuesToFieldErrors, type FieldErrors } from './zod-issues';

export interface OrderFormCheck {
  /** The parsed payload when the form is valid. */
  data?: OrderCreate;
  errors: FieldErrors;
}

/** extraParamName → valueType of the chosen service's additional services. */
export type ExtraParamTypes = Readonly<Record<string, string>>;

/**
 * Validates the form with the core's own schema and maps its issues to the form's fields.
 * `extraTypes` adds the one rule the schema cannot know: a numeric additional service takes a number.
 */
export function validateOrderForm(values: OrderFormValues, extraTypes: ExtraParamTypes = {}): OrderFormCheck {
  const input = toCreateInput(values, extraTypes);
  const parsed = orderCreateSchema.safeParse(input);
  const errors: Record<string, Said> = parsed.success ? {} : { ...issuesToFieldErrors(parsed.error.issues, input, fieldAliases) };
  // The schema checks the pickup point and the city in object-level refinements, which zod runs only
  // once every field of the object parses. The same rules, applied early, so the user sees them with
  // the other errors instead of after fixing those.
  if (values.order.deliveryType === '2' && values.order.pointOutId.trim() === '') {
    errors['order.pointOutId'] ??= 'is required when deliveryType = 2';
  }
  const line = values.recipientAddressMode === 'line';
  if (line) {
    // One-line mode shows no city box: the rule's message belongs to the line.
    const cityError = errors['recipient.city'];
    delete errors['recipient.city'];
    if (cityError || values.recipient.addressString.trim() === '') errors['recipient.addressString'] ??= cityError ?? 'city or addressString is required';
  } else if (values.recipient.city.trim() === '') {
    errors['recipient.city'] ??= 'city or addressString is required';
  }
  if (values.sender.city.trim() === '') errors['sender.city'] ??= 'city or addressString is required';
  for (const [name, value] of Object.entries(values.extraParams)) {
    const type = extraTypes[name];
    if (typeof value !== 'string' || value.trim() === '' || (type !== 'int' && type !== 'float')) continue;
    const n = numberOf(value);
    if (n === undefined) errors[extraParamPath(name)] = 'must be a number';
    else if (type === 'int' && !Number.isInteger(n)) errors[extraParamPath(name)] = 'must be a whole number';
  }
  if (parsed.success && Object.keys(errors).length === 0) return { data: parsed.data, errors };
  return { errors };
}

import { TextInput, type TextInputProps } from '@mantine/core';
import { translateDynamic } from '../i18n/translate';
import { useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { useField } from './field-context';
import { scalarPath, type ScalarField, type ScalarGroup } from './form-values';

type Bound<G extends ScalarGroup> = { group: G; field: ScalarField<G> };

/** The label of a field name, from the shared `field.*` keys. */
export function useFieldLabel(field: string): string {
  const t = useT();
  return translateDynamic(t, `field.${field}`) ?? field;
}

/** A text input bound to one scalar field of the form store. */
export function BoundTextInput<G extends ScalarGroup>({ group, field, ...props }: Bound<G> & Omit<TextInputProps, 'value' | 'onChange'>) {
  const value = useOrderFormStore((s) => s.values[group][field] as string);
  const setField = useOrderFormStore((s) => s.setField);
  const binding = useField(scalarPath(group, field));
  const label = useFieldLabel(field);
  return <TextInput label={label} {...binding} {...props} value={value} onChange={(e) => setField(group, field, e.currentTarget.value)} />;
}

/**
 * A numeric field bound to one scalar field. A plain text box on purpose: what the user typed or
 * pasted stays visible as typed ("3 500,50"); toCreateInput reads it as a number and the shared
 * schema says when it is not one. A masked number input silently dropped the comma of a pasted
 * "3500,50" and made it 350050.
 */
export function BoundDecimalInput<G extends ScalarGroup>({
  group,
  field,
  integer = false,
  ...props
}: Bound<G> & { integer?: boolean } & Omit<TextInputProps, 'value' | 'onChange'>) {
  return <BoundTextInput group={group} field={field} inputMode={integer ? 'numeric' : 'decimal'} autoComplete="off" {...props} />;
}

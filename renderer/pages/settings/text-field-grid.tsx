import { SimpleGrid, TextInput } from '@mantine/core';
import { fieldMessage } from '../../i18n/error-messages';
import type { PlainMessageKey } from '../../i18n/types';
import { useT } from '../../i18n/use-t';
import type { FieldErrors } from '../../order-form/zod-issues';

/** One text box of a settings form: its label, hint, and whether it takes the whole row. */
export interface TextFieldSpec<K extends string> {
  key: K;
  label: PlainMessageKey;
  hint?: PlainMessageKey;
  required?: boolean;
  wide?: boolean;
  inputMode?: 'numeric' | 'tel' | 'email';
}

interface TextFieldGridProps<K extends string> {
  fields: readonly TextFieldSpec<K>[];
  values: Record<K, string>;
  errors: FieldErrors;
  onChange: (key: K, value: string) => void;
  /** data-testid of each box: `<prefix>-<key>`. */
  testIdPrefix: string;
  autofocusFirst?: boolean;
}

/** The text boxes of a settings form in two columns, each with its translated error under it. */
export function TextFieldGrid<K extends string>({ fields, values, errors, onChange, testIdPrefix, autofocusFirst = false }: TextFieldGridProps<K>) {
  const t = useT();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
      {fields.map((f, i) => (
        <TextInput
          key={f.key}
          label={t(f.label)}
          description={f.hint ? t(f.hint) : undefined}
          withAsterisk={f.required}
          value={values[f.key]}
          onChange={(e) => onChange(f.key, e.currentTarget.value)}
          error={errors[f.key] ? fieldMessage(errors[f.key]!, t) : undefined}
          inputMode={f.inputMode}
          style={f.wide ? { gridColumn: '1 / -1' } : undefined}
          data-autofocus={(autofocusFirst && i === 0) || undefined}
          data-testid={`${testIdPrefix}-${f.key}`}
        />
      ))}
    </SimpleGrid>
  );
}

import { ActionIcon, Button, Group, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '../components/icons';
import { useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { useFieldLabel } from './bound-inputs';
import { useField } from './field-context';
import { FormSection } from './form-section';
import { fieldDomId, itemPath, type ItemField } from './form-values';

/** The place's items: description, quantity, price; rows can be added and removed (at least one stays). */
export function ItemsFields() {
  const t = useT();
  const count = useOrderFormStore((s) => s.values.items.length);
  const keys = useOrderFormStore((s) => s.values.items.map((i) => i.key).join('|'));
  const addItem = useOrderFormStore((s) => s.addItem);

  const add = () => {
    addItem();
    // Continue typing in the new row.
    requestAnimationFrame(() => document.getElementById(fieldDomId(itemPath(count, 'description')))?.focus());
  };

  return (
    <FormSection legend={t('form.section.items')} testId="items-fields">
      <Stack gap="xs">
        {keys.split('|').map((key, index) => (
          <ItemRow key={key} index={index} removable={count > 1} />
        ))}
        <Group>
          <Button variant="subtle" size="xs" leftSection={<IconPlus size={14} />} onClick={add} data-testid="add-item">
            {t('form.item.add')}
          </Button>
        </Group>
      </Stack>
    </FormSection>
  );
}

function ItemRow({ index, removable }: { index: number; removable: boolean }) {
  const t = useT();
  const removeItem = useOrderFormStore((s) => s.removeItem);
  const n = index + 1;
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start" data-testid="item-row" role="group" aria-label={t('form.item.heading', { n })}>
      <Text size="sm" c="dimmed" w={20} pt={30} ta="right" className="sd-numeric" aria-hidden>
        {n}
      </Text>
      <ItemText index={index} field="description" />
      <ItemNumber index={index} field="quantity" width={84} />
      <ItemNumber index={index} field="cost" width={130} />
      <Tooltip label={t('form.item.remove', { n })} openDelay={300} disabled={!removable}>
        <ActionIcon
          variant="subtle"
          color="gray"
          mt={26}
          size={36}
          disabled={!removable}
          onClick={() => removeItem(index)}
          aria-label={t('form.item.remove', { n })}
          data-testid="remove-item"
        >
          <IconTrash size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

function useItemValue(index: number, field: ItemField) {
  const value = useOrderFormStore((s) => s.values.items[index]?.[field] ?? '');
  const setItemField = useOrderFormStore((s) => s.setItemField);
  return [value, (v: string) => setItemField(index, field, v)] as const;
}

function ItemText({ index, field }: { index: number; field: ItemField }) {
  const [value, set] = useItemValue(index, field);
  const binding = useField(itemPath(index, field));
  return (
    <TextInput
      label={useFieldLabel(field)}
      required
      {...binding}
      value={value}
      onChange={(e) => set(e.currentTarget.value)}
      style={{ flex: 1, minWidth: 0 }}
      autoComplete="off"
    />
  );
}

function ItemNumber({ index, field, width }: { index: number; field: ItemField; width: number }) {
  const [value, set] = useItemValue(index, field);
  const binding = useField(itemPath(index, field));
  const isQuantity = field === 'quantity';
  return (
    <TextInput
      label={useFieldLabel(field)}
      required={isQuantity}
      {...binding}
      value={value}
      onChange={(e) => set(e.currentTarget.value)}
      inputMode={isQuantity ? 'numeric' : 'decimal'}
      autoComplete="off"
      w={width}
    />
  );
}

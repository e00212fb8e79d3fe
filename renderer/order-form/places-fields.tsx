import { ActionIcon, Button, Group, Paper, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { IconPlus, IconTrash } from '../components/icons';
import { useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { useFieldLabel } from './bound-inputs';
import { useField } from './field-context';
import { FormSection } from './form-section';
import { fieldDomId, itemPath, placePath, type ItemField, type PlaceField } from './form-values';

/** Continue typing in a row just added. */
const focusSoon = (path: string) => requestAnimationFrame(() => document.getElementById(fieldDomId(path))?.focus());

/** The parcel's places (boxes), each with its weight, sizes and items; places and items are added and removed (one of each stays). */
export function PlacesFields() {
  const t = useT();
  const keys = useOrderFormStore((s) => s.values.places.map((p) => p.key).join('|'));
  const addPlace = useOrderFormStore((s) => s.addPlace);
  const count = keys.split('|').length;
  return (
    <FormSection legend={t('entry.section.places')} testId="places-fields">
      <Stack gap="sm">
        {keys.split('|').map((key, index) => (
          <PlaceCard key={key} place={index} removable={count > 1} numbered={count > 1} />
        ))}
        <AddButton
          testId="add-place"
          onClick={() => {
            addPlace();
            focusSoon(placePath(count, 'weight'));
          }}
        >
          {t('entry.place.add')}
        </AddButton>
      </Stack>
    </FormSection>
  );
}

function PlaceCard({ place, removable, numbered }: { place: number; removable: boolean; numbered: boolean }) {
  const t = useT();
  const removePlace = useOrderFormStore((s) => s.removePlace);
  const itemKeys = useOrderFormStore((s) => s.values.places[place]?.items.map((i) => i.key).join('|') ?? '');
  const addItem = useOrderFormStore((s) => s.addItem);
  const n = place + 1;
  const itemCount = itemKeys.split('|').length;
  return (
    <Paper withBorder={numbered} p={numbered ? 'xs' : 0} radius="sm" data-testid="place-card" role="group" aria-label={t('field.place', { n })}>
      <Stack gap="xs">
        {numbered && (
          <Group justify="space-between">
            <Text size="sm" fw={600}>
              {t('field.place', { n })}
            </Text>
            <Tooltip label={t('entry.place.remove', { n })} openDelay={300}>
              <ActionIcon variant="subtle" color="gray" disabled={!removable} onClick={() => removePlace(place)} aria-label={t('entry.place.remove', { n })} data-testid="remove-place">
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        )}
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <PlaceNumber place={place} field="weight" required width={120} />
          <PlaceNumber place={place} field="length" width={96} />
          <PlaceNumber place={place} field="width" width={96} />
          <PlaceNumber place={place} field="height" width={96} />
        </Group>
        {itemKeys.split('|').map((key, index) => (
          <ItemRow key={key} place={place} index={index} removable={itemCount > 1} />
        ))}
        <AddButton
          testId="add-item"
          onClick={() => {
            addItem(place);
            focusSoon(itemPath(place, itemCount, 'description'));
          }}
        >
          {t('form.item.add')}
        </AddButton>
      </Stack>
    </Paper>
  );
}

function PlaceNumber({ place, field, required = false, width }: { place: number; field: PlaceField; required?: boolean; width: number }) {
  const value = useOrderFormStore((s) => s.values.places[place]?.[field] ?? '');
  const setPlaceField = useOrderFormStore((s) => s.setPlaceField);
  const binding = useField(placePath(place, field));
  return (
    <TextInput
      label={useFieldLabel(field)}
      required={required}
      {...binding}
      value={value}
      onChange={(e) => setPlaceField(place, field, e.currentTarget.value)}
      inputMode="decimal"
      autoComplete="off"
      w={width}
    />
  );
}

function ItemRow({ place, index, removable }: { place: number; index: number; removable: boolean }) {
  const t = useT();
  const removeItem = useOrderFormStore((s) => s.removeItem);
  const n = index + 1;
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start" data-testid="item-row" role="group" aria-label={t('form.item.heading', { n })}>
      <Text size="sm" c="dimmed" w={16} pt={30} ta="right" className="sd-numeric" aria-hidden>
        {n}
      </Text>
      <ItemInput place={place} index={index} field="description" flex required />
      <ItemInput place={place} index={index} field="articul" width={110} />
      <ItemInput place={place} index={index} field="quantity" width={70} required numeric />
      <ItemInput place={place} index={index} field="cost" width={110} numeric />
      <Tooltip label={t('form.item.remove', { n })} openDelay={300} disabled={!removable}>
        <ActionIcon
          variant="subtle"
          color="gray"
          mt={26}
          size={36}
          disabled={!removable}
          onClick={() => removeItem(place, index)}
          aria-label={t('form.item.remove', { n })}
          data-testid="remove-item"
        >
          <IconTrash size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

function ItemInput(props: { place: number; index: number; field: ItemField; width?: number; flex?: boolean; required?: boolean; numeric?: boolean }) {
  const { place, index, field, width, flex, required, numeric } = props;
  const value = useOrderFormStore((s) => s.values.places[place]?.items[index]?.[field] ?? '');
  const setItemField = useOrderFormStore((s) => s.setItemField);
  const binding = useField(itemPath(place, index, field));
  return (
    <TextInput
      label={useFieldLabel(field)}
      required={required}
      {...binding}
      value={value}
      onChange={(e) => setItemField(place, index, field, e.currentTarget.value)}
      inputMode={numeric ? (field === 'quantity' ? 'numeric' : 'decimal') : undefined}
      autoComplete="off"
      w={width}
      style={flex ? { flex: 1, minWidth: 0 } : undefined}
    />
  );
}

/** "Add a place" / "Add an item": adds the row, then the cursor goes to its first box. */
function AddButton({ onClick, testId, children }: { onClick: () => void; testId: string; children: ReactNode }) {
  return (
    <Group>
      <Button variant="subtle" size="xs" leftSection={<IconPlus size={14} />} onClick={onClick} data-testid={testId}>
        {children}
      </Button>
    </Group>
  );
}

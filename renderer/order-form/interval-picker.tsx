import { Chip, Grid, Group, Loader, Select, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { errorTitle } from '../i18n/error-messages';
import { useLanguage, useT } from '../i18n/use-t';
import { intlLocale } from '../i18n/translate';
import { useOrderFormStore } from '../stores/order-form-store';
import { useProvidersStore } from '../stores/providers-store';
import { DayInput } from '../components/day-input';
import { BoundTextInput, useFieldLabel } from './bound-inputs';
import { useField } from './field-context';
import { intervalsRequestOf, tariffIntervals } from './interval-request';
import { useDebouncedCommand } from './use-debounced-command';

const slotKey = (i: { from: string; to: string }) => `${i.from}-${i.to}`;

/**
 * When the courier comes, for delivery to the door. A service with fixed intervals offers its slots
 * (no dates); one with dynamic intervals offers dates, then the slots of that date; a service without
 * intervals takes any time, typed in.
 */
export function IntervalPicker() {
  const providerKey = useOrderFormStore((s) => s.values.order.providerKey);
  const kind = useProvidersStore((s) => s.providers.find((p) => p.key === providerKey)?.capabilities.intervals);
  if (!providerKey || kind === undefined) return null;
  return kind === 'none' ? <FreeTime /> : <ServiceIntervals dynamic={kind === 'dynamic'} />;
}

function FreeTime() {
  const t = useT();
  return (
    <Stack gap={4} data-testid="free-time">
      <Text size="sm" fw={600}>
        {t('entry.interval.title')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('entry.interval.free')}
      </Text>
      <Grid gap="sm">
        <Grid.Col span={{ base: 12, xs: 4 }}>
          <DeliveryDayInput />
        </Grid.Col>
        <Grid.Col span={{ base: 6, xs: 4 }}>
          <BoundTextInput group="order" field="deliveryTimeStart" placeholder="10:00" autoComplete="off" />
        </Grid.Col>
        <Grid.Col span={{ base: 6, xs: 4 }}>
          <BoundTextInput group="order" field="deliveryTimeEnd" placeholder="18:00" autoComplete="off" />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

function ServiceIntervals({ dynamic }: { dynamic: boolean }) {
  const t = useT();
  const language = useLanguage();
  const values = useOrderFormStore((s) => s.values);
  const chooseInterval = useOrderFormStore((s) => s.chooseInterval);
  const binding = useField('order.deliveryTimeStart');
  const request = useMemo(() => intervalsRequestOf(values), [values]);
  const state = useDebouncedCommand('calculator.intervals', request, 300);
  const { deliveryDate, deliveryTimeStart, deliveryTimeEnd, providerKey, tariffId } = values.order;
  const intervals = 'value' in state && state.value ? tariffIntervals(state.value, providerKey, tariffId) : undefined;

  const dates = useMemo(() => [...new Set((intervals ?? []).map((i) => i.date).filter((d): d is string => d !== null))], [intervals]);
  const dayFormat = useMemo(() => new Intl.DateTimeFormat(intlLocale(language), { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }), [language]);
  const shownDate = dynamic ? (dates.includes(deliveryDate) ? deliveryDate : undefined) : undefined;
  const slots = (intervals ?? []).filter((i) => (dynamic ? i.date === shownDate : i.date === null));
  const chosen = deliveryTimeStart && deliveryTimeEnd ? `${deliveryTimeStart}-${deliveryTimeEnd}` : '';

  let body;
  if (!request) body = <Text size="xs" c="dimmed">{t('entry.interval.tariffFirst')}</Text>;
  else if (state.status === 'error') body = <Text size="xs" c="orange">{`${t('entry.interval.failed')}: ${errorTitle(state.error, t)}`}</Text>;
  else if (!intervals) body = state.status === 'loading' ? <Loader size={14} /> : <Text size="xs" c="dimmed">{t('entry.interval.noneForTariff')}</Text>;
  else
    body = (
      <Stack gap={6}>
        {dynamic && (
          <Select
            label={t('field.deliveryDate')}
            placeholder={t('entry.interval.datePlaceholder')}
            data={dates.map((d) => ({ value: d, label: dayFormat.format(new Date(`${d}T00:00:00Z`)) }))}
            value={shownDate ?? null}
            onChange={(d) => chooseInterval(d ? { date: d, from: '', to: '' } : null)}
            allowDeselect={false}
            w={240}
            data-testid="interval-date"
          />
        )}
        {(!dynamic || shownDate) && (
          <Chip.Group value={chosen} onChange={(v) => {
            const slot = slots.find((s) => slotKey(s) === v);
            if (slot) chooseInterval({ date: dynamic ? (shownDate ?? null) : null, from: slot.from, to: slot.to });
          }}>
            <Group gap={6} data-testid="interval-slots">
              {slots.length === 0 && <Text size="xs" c="dimmed">{t('entry.interval.noSlots')}</Text>}
              {slots.map((s) => (
                <Chip key={slotKey(s)} value={slotKey(s)} size="xs" radius="sm" wrapperProps={{ 'data-testid': 'interval-slot' }}>
                  {s.from}–{s.to}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        )}
      </Stack>
    );

  return (
    <Stack gap={4} data-testid="interval-picker">
      <Text size="sm" fw={600} id={binding.id} tabIndex={-1}>
        {t('entry.interval.title')} <Text span size="xs" c="dimmed" fw={400}>{t(dynamic ? 'entry.interval.dynamic' : 'entry.interval.fixed')}</Text>
      </Text>
      {binding.error && <Text size="xs" c="red" role="alert">{binding.error}</Text>}
      {body}
    </Stack>
  );
}

/** The delivery day typed or picked in the app's language; the form keeps it as YYYY-MM-DD. */
function DeliveryDayInput() {
  const value = useOrderFormStore((s) => s.values.order.deliveryDate);
  const setField = useOrderFormStore((s) => s.setField);
  const binding = useField('order.deliveryDate');
  return (
    <DayInput
      label={useFieldLabel('deliveryDate')}
      {...binding}
      value={value || null}
      onChange={(day) => setField('order', 'deliveryDate', day ?? '')}
      autoComplete="off"
      data-testid="delivery-day"
    />
  );
}

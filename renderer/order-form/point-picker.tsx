import { Badge, Checkbox, Grid, Group, Loader, Paper, SegmentedControl, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import type { Point } from '../../shared/schemas/lists';
import { IconSearch } from '../components/icons';
import { errorTitle } from '../i18n/error-messages';
import { useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { useField } from './field-context';
import { numberOf, type ChosenPoint, type OrderFormValues } from './form-values';
import { pointSearchOf, type PointFilters } from './order-parcel';
import { useDebouncedCommand } from './use-debounced-command';
import { Worktime } from './worktime';

const searchDelayMs = 300;

/**
 * The pickup point for delivery to a point: search the chosen service's points by city and address,
 * narrow them (cash on delivery, fitting room, lockers or pickup points), and only points that take
 * this order are listed (weight, sizes against a locker's cells, the COD amount). Each shows its hours.
 */
export function PointPicker() {
  const t = useT();
  const values = useOrderFormStore((s) => s.values);
  const choosePoint = useOrderFormStore((s) => s.choosePoint);
  const binding = useField('order.pointOutId');
  // In one-line mode the city is what comes before the first comma ("Казань, Баумана 1").
  const recipientCity = values.recipientAddressMode === 'line' ? (values.recipient.addressString.split(',')[0] ?? '').trim() : values.recipient.city;
  const [filters, setFilters] = useState<PointFilters>({ city: recipientCity, search: '', cod: false, fittingRoom: false, kind: 'all' });
  // The city follows the recipient's until the user types another one here.
  const [cityTouched, setCityTouched] = useState(false);
  useEffect(() => {
    if (!cityTouched) setFilters((f) => ({ ...f, city: recipientCity }));
  }, [recipientCity, cityTouched]);

  const providerKey = values.order.providerKey;
  const query = useMemo(() => (providerKey ? pointSearchOf(values, filters) : undefined), [providerKey, values, filters]);
  const points = useDebouncedCommand('lists.points', query, searchDelayMs);
  const hasCod = (numberOf(values.cost.codCost) ?? 0) > 0;
  const chosenFits = useChosenPointFits(values);
  const set = <K extends keyof PointFilters>(key: K, value: PointFilters[K]) => setFilters((f) => ({ ...f, [key]: value }));

  if (!providerKey) {
    return (
      <Text size="sm" c="dimmed" id={binding.id} tabIndex={-1}>
        {t('entry.point.serviceFirst')}
      </Text>
    );
  }
  const rows = 'value' in points && points.value ? points.value.rows : [];
  const total = 'value' in points && points.value ? points.value.total : 0;
  return (
    <Stack gap="xs" data-testid="point-picker">
      <Text size="sm" fw={600}>
        {t('entry.point.title')}
      </Text>
      {values.point && values.order.pointOutId === String(values.point.id) ? (
        <ChosenPointCard point={values.point} fits={chosenFits} onClear={() => choosePoint(null)} />
      ) : (
        <Text size="sm" c={binding.error ? 'red' : 'dimmed'} id={binding.id} tabIndex={-1} role={binding.error ? 'alert' : undefined} data-testid="point-none">
          {binding.error ?? (values.order.pointOutId ? t('entry.point.byId', { id: values.order.pointOutId }) : t('entry.point.none'))}
        </Text>
      )}
      <Grid gap="xs">
        <Grid.Col span={{ base: 12, xs: 5 }}>
          <TextInput
            label={t('entry.point.city')}
            value={filters.city}
            onChange={(e) => {
              setCityTouched(true);
              set('city', e.currentTarget.value);
            }}
            autoComplete="off"
            data-testid="point-city"
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, xs: 7 }}>
          <TextInput
            label={t('entry.point.search')}
            placeholder={t('entry.point.searchPlaceholder')}
            value={filters.search}
            onChange={(e) => set('search', e.currentTarget.value)}
            leftSection={<IconSearch size={14} />}
            autoComplete="off"
            data-testid="point-search"
          />
        </Grid.Col>
      </Grid>
      <Group gap="md" wrap="wrap">
        <Checkbox
          size="xs"
          label={t('entry.point.cod')}
          checked={filters.cod || hasCod}
          disabled={hasCod}
          description={hasCod ? t('entry.point.codForced') : undefined}
          onChange={(e) => set('cod', e.currentTarget.checked)}
          data-testid="point-filter-cod"
        />
        <Checkbox size="xs" label={t('entry.point.fittingRoom')} checked={filters.fittingRoom} onChange={(e) => set('fittingRoom', e.currentTarget.checked)} data-testid="point-filter-fitting" />
        <SegmentedControl
          size="xs"
          value={filters.kind}
          onChange={(v) => set('kind', v as PointFilters['kind'])}
          aria-label={t('entry.point.kind')}
          data={[
            { value: 'all', label: t('entry.point.kind.all') },
            { value: 'pickup', label: t('entry.point.kind.pickup') },
            { value: 'locker', label: t('entry.point.kind.locker') },
          ]}
          data-testid="point-filter-kind"
        />
      </Group>
      <Group justify="space-between">
        <Text size="xs" c="dimmed" data-testid="point-count">
          {points.status === 'error' ? `${t('entry.point.failed')}: ${errorTitle(points.error, t)}` : t('entry.point.fit', { n: total })}
        </Text>
        {points.status === 'loading' && <Loader size={14} aria-label={t('entry.point.loading')} />}
      </Group>
      <Stack gap={4} mah={260} style={{ overflowY: 'auto' }} aria-label={t('entry.point.title')} role="group">
        {rows.map((point) => (
          <PointOption key={point.id} point={point} selected={values.order.pointOutId === String(point.id)} onChoose={() => choosePoint(chosenOf(point))} />
        ))}
      </Stack>
    </Stack>
  );
}

const chosenOf = (p: Point): ChosenPoint => ({ id: p.id, providerKey: p.providerKey, code: p.code, name: p.name, address: p.address, worktime: p.worktime });

/**
 * Whether the chosen point still takes the order after weights, sizes or the COD changed: the same
 * search as the list, narrowed to the point's code. Undefined while unknown.
 */
function useChosenPointFits(values: OrderFormValues): boolean | undefined {
  const point = values.point;
  const query = useMemo(() => {
    if (!point?.code || point.providerKey !== values.order.providerKey) return undefined;
    return { ...pointSearchOf(values, { city: '', search: point.code, cod: false, fittingRoom: false, kind: 'all' }), limit: 20 };
  }, [point, values]);
  const state = useDebouncedCommand('lists.points', query, searchDelayMs);
  if (state.status !== 'ready') return undefined;
  return state.value.rows.some((p) => p.id === point?.id);
}

function PointBadges({ point }: { point: Point }) {
  const t = useT();
  return (
    <Group gap={4} wrap="nowrap">
      {point.type === 2 && (
        <Badge size="xs" variant="light" color="grape" radius="sm">
          {t('entry.point.locker')}
        </Badge>
      )}
      {point.cod === 1 && (
        <Badge size="xs" variant="light" color="green" radius="sm">
          {t('entry.point.codBadge')}
        </Badge>
      )}
      {point.fittingRoom === 1 && (
        <Badge size="xs" variant="light" color="blue" radius="sm">
          {t('entry.point.fittingBadge')}
        </Badge>
      )}
    </Group>
  );
}

function PointOption({ point, selected, onChoose }: { point: Point; selected: boolean; onChoose: () => void }) {
  return (
    <UnstyledButton
      onClick={onChoose}
      aria-pressed={selected}
      data-testid="point-option"
      p={6}
      style={{
        borderRadius: 'var(--mantine-radius-sm)',
        border: `1px solid ${selected ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-default-border)'}`,
        background: selected ? 'var(--mantine-primary-color-light)' : undefined,
      }}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" fw={500} className="sd-ellipsis">
          {point.name}
        </Text>
        <PointBadges point={point} />
      </Group>
      <Text size="xs" c="dimmed" className="sd-ellipsis">
        {point.address}
      </Text>
      <Worktime worktime={point.worktime} />
    </UnstyledButton>
  );
}

function ChosenPointCard({ point, fits, onClear }: { point: ChosenPoint; fits: boolean | undefined; onClear: () => void }) {
  const t = useT();
  return (
    <Paper withBorder p="xs" radius="sm" data-testid="point-chosen" data-point-id={point.id} style={fits === false ? { borderColor: 'var(--mantine-color-orange-6)' } : undefined}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <div style={{ minWidth: 0 }}>
          <Text size="sm" fw={600} className="sd-ellipsis">
            {point.name} · {point.id}
          </Text>
          <Text size="xs" c="dimmed">
            {point.address}
          </Text>
          <Worktime worktime={point.worktime} />
          {fits === false && (
            <Text size="xs" c="orange" role="alert" data-testid="point-misfit">
              {t('entry.point.misfit')}
            </Text>
          )}
        </div>
        <UnstyledButton onClick={onClear} fz="xs" c="dimmed" td="underline">
          {t('entry.point.change')}
        </UnstyledButton>
      </Group>
    </Paper>
  );
}

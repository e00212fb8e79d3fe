import { Badge, Checkbox, Grid, Group, Loader, Paper, SegmentedControl, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import type { Point, PointSearch } from '../../shared/schemas/lists';
import { IconSearch } from '../components/icons';
import { errorTitle } from '../i18n/error-messages';
import { useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { useProvidersStore } from '../stores/providers-store';
import { getTransport } from '../transport/current';
import { useField } from './field-context';
import { numberOf, type ChosenPoint, type OrderFormValues } from './form-values';
import { dropOffSearchOf, offeredKinds, pointSearchOf, type PointFilters, type PointKind } from './order-parcel';
import { useDebouncedCommand } from './use-debounced-command';
import { Worktime } from './worktime';

const searchDelayMs = 300;

/**
 * The pickup point for delivery to a point: search the chosen service's points by city and address,
 * narrow them (cash on delivery, fitting room, lockers or pickup points), and only points that take
 * this order are listed (weight, sizes against a locker's cells, the COD amount). Each shows its hours.
 */
export function PointPicker() {
  const values = useOrderFormStore((s) => s.values);
  const choosePoint = useOrderFormStore((s) => s.choosePoint);
  // In one-line mode the city is what comes before the first comma ("Казань, Баумана 1").
  const recipientCity = values.recipientAddressMode === 'line' ? (values.recipient.addressString.split(',')[0] ?? '').trim() : values.recipient.city;
  const hasCod = (numberOf(values.cost.codCost) ?? 0) > 0;
  const tariffTypes = useTariffPointTypes(values.order.providerKey, values.order.tariffId);
  const chosenFits = useChosenPointFits(values, tariffTypes);
  return (
    <PointSearchPanel
      role="out"
      path="order.pointOutId"
      city={recipientCity}
      chosen={values.point}
      chosenId={values.order.pointOutId}
      chosenFits={chosenFits}
      hasCod={hasCod}
      tariffTypes={tariffTypes}
      queryOf={(filters) => pointSearchOf(values, filters, tariffTypes)}
      onChoose={choosePoint}
    />
  );
}

/** The point types the chosen tariff delivers to, where its service says it takes some kinds only (Russian Post's parcel "called for": post offices). */
function useTariffPointTypes(providerKey: string, tariffId: string): Point['type'][] | undefined {
  return useProvidersStore((s) => s.providers.find((p) => p.key === providerKey)?.capabilities.tariffPointTypes?.[tariffId.trim()]);
}

/** Whether the service has post offices among its points, so the picker offers them as a kind of their own. */
function useHasOffices(providerKey: string): boolean {
  const state = useDebouncedCommand('lists.points', providerKey ? { providerKey, types: [3], limit: 1 } : undefined, 0);
  return state.status === 'ready' && state.value.total > 0;
}

/**
 * The office the shop brings the parcel to, for tariffs "склад-…" (pickupType 2): the same search,
 * over the service's points that take parcels in. The shop's usual office of the service is offered
 * at once, and a chosen one becomes the usual office.
 */
export function DropOffPicker() {
  const values = useOrderFormStore((s) => s.values);
  const chooseDropOff = useOrderFormStore((s) => s.chooseDropOff);
  useUsualDropOff(values.order.providerKey, values.order.pointInId);
  return (
    <PointSearchPanel
      role="in"
      path="order.pointInId"
      city={values.sender.city}
      chosen={values.dropOffPoint}
      chosenId={values.order.pointInId}
      hasCod={false}
      queryOf={(filters) => dropOffSearchOf(values.order.providerKey, filters)}
      onChoose={chooseDropOff}
    />
  );
}

/** Fills an empty drop-off office with the shop's usual one for the service, once per service. */
function useUsualDropOff(providerKey: string, pointInId: string) {
  const prefillDropOff = useOrderFormStore((s) => s.prefillDropOff);
  const wanted = providerKey && !pointInId ? providerKey : '';
  useEffect(() => {
    if (!wanted) return;
    let current = true;
    void getTransport()
      .invoke('dropOff.usual', { providerKey: wanted })
      .then((result) => {
        if (current && result.ok && result.value) prefillDropOff(chosenOf(result.value));
      });
    return () => {
      current = false;
    };
  }, [wanted, prefillDropOff]);
}

interface PointSearchPanelProps {
  /** `out` hands the order to the recipient, `in` takes the shop's parcel in. */
  role: 'out' | 'in';
  path: 'order.pointOutId' | 'order.pointInId';
  /** The city the search starts in, followed until the user types another one. */
  city: string;
  chosen: ChosenPoint | null;
  chosenId: string;
  chosenFits?: boolean;
  hasCod: boolean;
  /** The types the tariff delivers to, when not every kind. */
  tariffTypes?: readonly Point['type'][];
  queryOf: (filters: PointFilters) => PointSearch;
  onChoose: (point: ChosenPoint | null) => void;
}

function PointSearchPanel({ role, path, city, chosen, chosenId, chosenFits, hasCod, tariffTypes, queryOf, onChoose }: PointSearchPanelProps) {
  const t = useT();
  const binding = useField(path);
  const providerKey = useOrderFormStore((s) => s.values.order.providerKey);
  const [filters, setFilters] = useState<PointFilters>({ city, search: '', cod: false, fittingRoom: false, kind: 'all' });
  const [cityTouched, setCityTouched] = useState(false);
  useEffect(() => {
    if (!cityTouched) setFilters((f) => ({ ...f, city }));
  }, [city, cityTouched]);

  const kinds = offeredKinds(tariffTypes, useHasOffices(providerKey));
  // A kind the tariff does not deliver to (or the service lacks) falls back to the first one offered.
  const kind = kinds.includes(filters.kind) ? filters.kind : (kinds[0] ?? 'all');
  const query = providerKey ? queryOf({ ...filters, kind }) : undefined;
  const points = useDebouncedCommand('lists.points', query, searchDelayMs);
  const set = <K extends keyof PointFilters>(key: K, value: PointFilters[K]) => setFilters((f) => ({ ...f, [key]: value }));
  const text = role === 'out' ? outTexts : inTexts;
  const testId = role === 'out' ? 'point' : 'dropoff';

  if (!providerKey) {
    return (
      <Text size="sm" c="dimmed" id={binding.id} tabIndex={-1}>
        {t(text.serviceFirst)}
      </Text>
    );
  }
  const rows = 'value' in points && points.value ? points.value.rows : [];
  const total = 'value' in points && points.value ? points.value.total : 0;
  return (
    <Stack gap="xs" data-testid={`${testId}-picker`}>
      <Text size="sm" fw={600}>
        {t(text.title)}
      </Text>
      {chosen && chosenId === String(chosen.id) ? (
        <ChosenPointCard point={chosen} fits={chosenFits} error={binding.error} onClear={() => onChoose(null)} testId={`${testId}-chosen`} />
      ) : (
        <Text size="sm" c={binding.error ? 'red' : 'dimmed'} id={binding.id} tabIndex={-1} role={binding.error ? 'alert' : undefined} data-testid={`${testId}-none`}>
          {binding.error ?? (chosenId ? t('entry.point.byId', { id: chosenId }) : t(text.none))}
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
            data-testid={`${testId}-city`}
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
            data-testid={`${testId}-search`}
          />
        </Grid.Col>
      </Grid>
      <Group gap="md" wrap="wrap">
        {role === 'out' && (
          <>
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
          </>
        )}
        {kinds.length > 1 && (
          <SegmentedControl
            size="xs"
            value={kind}
            onChange={(v) => set('kind', v as PointKind)}
            aria-label={t('entry.point.kind')}
            data={kinds.map((k) => ({ value: k, label: t(kindLabels[k]) }))}
            data-testid={`${testId}-filter-kind`}
          />
        )}
      </Group>
      {tariffTypes && (
        <Text size="xs" c="dimmed" data-testid={`${testId}-tariff-kinds`}>
          {t('entry.point.tariffKinds', { kinds: kinds.filter((k) => k !== 'all').map((k) => t(kindLabels[k]).toLocaleLowerCase()).join(', ') })}
        </Text>
      )}
      <Group justify="space-between">
        <Text size="xs" c="dimmed" data-testid={`${testId}-count`}>
          {points.status === 'error' ? `${t('entry.point.failed')}: ${errorTitle(points.error, t)}` : t(text.fit, { n: total })}
        </Text>
        {points.status === 'loading' && <Loader size={14} aria-label={t('entry.point.loading')} />}
      </Group>
      <Stack gap={4} mah={260} style={{ overflowY: 'auto' }} aria-label={t(text.title)} role="group">
        {rows.map((point) => (
          <PointOption key={point.id} point={point} role={role} selected={chosenId === String(point.id)} onChoose={() => onChoose(chosenOf(point))} testId={`${testId}-option`} />
        ))}
      </Stack>
    </Stack>
  );
}

const kindLabels = {
  all: 'entry.point.kind.all',
  pickup: 'entry.point.kind.pickup',
  office: 'entry.point.kind.office',
  locker: 'entry.point.kind.locker',
} as const satisfies Record<PointKind, string>;

const outTexts = { title: 'entry.point.title', serviceFirst: 'entry.point.serviceFirst', none: 'entry.point.none', fit: 'entry.point.fit' } as const;
const inTexts = { title: 'entry.dropOff.title', serviceFirst: 'entry.dropOff.serviceFirst', none: 'entry.dropOff.none', fit: 'entry.dropOff.fit' } as const;

const chosenOf = (p: Point): ChosenPoint => ({
  id: p.id,
  providerKey: p.providerKey,
  code: p.code,
  name: p.name,
  address: p.address,
  ...(p.postIndex ? { postIndex: p.postIndex } : {}),
  worktime: p.worktime,
});

/**
 * Whether the chosen point still takes the order after weights, sizes or the COD changed: the same
 * search as the list, narrowed to the point's code. Undefined while unknown.
 */
function useChosenPointFits(values: OrderFormValues, tariffTypes: readonly Point['type'][] | undefined): boolean | undefined {
  const point = values.point;
  const query = useMemo(() => {
    if (!point?.code || point.providerKey !== values.order.providerKey) return undefined;
    return { ...pointSearchOf(values, { city: '', search: point.code, cod: false, fittingRoom: false, kind: 'all' }, tariffTypes), limit: 20 };
  }, [point, values, tariffTypes]);
  const state = useDebouncedCommand('lists.points', query, searchDelayMs);
  if (state.status !== 'ready') return undefined;
  return state.value.rows.some((p) => p.id === point?.id);
}

/** What a point offers; the recipient's services (cash on delivery, fitting room) only where the recipient comes. */
function PointBadges({ point, role }: { point: Point; role: 'out' | 'in' }) {
  const t = useT();
  return (
    <Group gap={4} wrap="nowrap">
      {point.type === 2 && (
        <Badge size="xs" variant="light" color="grape" radius="sm">
          {t('entry.point.locker')}
        </Badge>
      )}
      {point.type === 3 && (
        <Badge size="xs" variant="light" color="indigo" radius="sm">
          {t('entry.point.office')}
        </Badge>
      )}
      {role === 'out' && point.cod === 1 && (
        <Badge size="xs" variant="light" color="green" radius="sm">
          {t('entry.point.codBadge')}
        </Badge>
      )}
      {role === 'out' && point.fittingRoom === 1 && (
        <Badge size="xs" variant="light" color="blue" radius="sm">
          {t('entry.point.fittingBadge')}
        </Badge>
      )}
    </Group>
  );
}

function PointOption({ point, role, selected, onChoose, testId }: { point: Point; role: 'out' | 'in'; selected: boolean; onChoose: () => void; testId: string }) {
  return (
    <UnstyledButton
      onClick={onChoose}
      aria-pressed={selected}
      data-testid={testId}
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
        <PointBadges point={point} role={role} />
      </Group>
      <Text size="xs" c="dimmed" className="sd-ellipsis">
        {point.address}
      </Text>
      <Worktime worktime={point.worktime} />
    </UnstyledButton>
  );
}

function ChosenPointCard({ point, fits, error, onClear, testId }: { point: ChosenPoint; fits: boolean | undefined; error: string | undefined; onClear: () => void; testId: string }) {
  const t = useT();
  return (
    <Paper withBorder p="xs" radius="sm" data-testid={testId} data-point-id={point.id} style={fits === false ? { borderColor: 'var(--mantine-color-orange-6)' } : undefined}>
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
          {/* The service's refusal of this very point (a parcel "called for" at a locker, a closed point). */}
          {error && (
            <Text size="xs" c="red" role="alert" data-testid={`${testId}-error`}>
              {error}
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

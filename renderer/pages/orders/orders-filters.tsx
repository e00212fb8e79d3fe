import { Button, Chip, Group, MultiSelect, SegmentedControl, Select } from '@mantine/core';
import { DayInput } from '../../components/day-input';
import { useMemo } from 'react';
import { statusKeys, statusNames, type StatusKey } from '../../../shared/status-keys';
import { useLanguage, useT } from '../../i18n/use-t';
import { isNarrowed, useOrdersStore, type OrdersFilter } from '../../stores/orders-store';
import { useProvidersStore } from '../../stores/providers-store';

const codValues = ['any', 'yes', 'no'] as const;

/** The filter row: statuses, delivery service, created dates, cash on delivery, reset. */
export function OrdersFilters() {
  const t = useT();
  const language = useLanguage();
  const filter = useOrdersStore((s) => s.filter);
  const narrowed = useOrdersStore((s) => isNarrowed({ search: '', filter: s.filter }));
  const setFilter = useOrdersStore((s) => s.setFilter);
  const clearFilters = useOrdersStore((s) => s.clearFilters);
  const providers = useProvidersStore((s) => s.providers);

  const statusOptions = useMemo(() => statusKeys.map((key) => ({ value: key, label: statusNames[key][language] })), [language]);
  const serviceOptions = useMemo(() => providers.map((p) => ({ value: p.key, label: p.name })), [providers]);
  const datesReversed = Boolean(filter.dateFrom && filter.dateTo && filter.dateFrom > filter.dateTo);

  // A reversed range is shown as an error and not sent (the core would refuse it too).
  const setDate = (patch: Partial<Pick<OrdersFilter, 'dateFrom' | 'dateTo'>>) => {
    const next = { ...filter, ...patch };
    if (next.dateFrom && next.dateTo && next.dateFrom > next.dateTo) useOrdersStore.setState({ filter: next });
    else setFilter(patch);
  };

  return (
    <Group px="md" pb="sm" gap="sm" wrap="wrap" align="flex-end" data-testid="orders-filters">
      <MultiSelect
        size="xs"
        w={260}
        label={t('ordersList.filter.status')}
        placeholder={filter.statusKeys.length ? undefined : t('ordersList.filter.statusAny')}
        data={statusOptions}
        value={filter.statusKeys}
        onChange={(value) => setFilter({ statusKeys: value as StatusKey[] })}
        clearable
        searchable
        maxDropdownHeight={320}
        comboboxProps={{ withinPortal: true }}
        data-testid="filter-status"
      />
      <Select
        size="xs"
        w={190}
        label={t('ordersList.filter.service')}
        placeholder={t('ordersList.filter.serviceAny')}
        data={serviceOptions}
        value={filter.providerKey}
        onChange={(value) => setFilter({ providerKey: value })}
        clearable
        data-testid="filter-service"
      />
      <DayInput
        size="xs"
        w={150}
        label={t('ordersList.filter.dateFrom')}
        value={filter.dateFrom ?? null}
        onChange={(day) => setDate({ dateFrom: day })}
        data-testid="filter-date-from"
      />
      <DayInput
        size="xs"
        w={150}
        label={t('ordersList.filter.dateTo')}
        value={filter.dateTo ?? null}
        onChange={(day) => setDate({ dateTo: day })}
        error={datesReversed ? t('ordersList.filter.datesReversed') : undefined}
        data-testid="filter-date-to"
      />
      <SegmentedControl
        size="xs"
        aria-label={t('ordersList.filter.cod')}
        data={codValues.map((value) => ({
          value,
          label: t(value === 'any' ? 'ordersList.filter.codAny' : value === 'yes' ? 'ordersList.filter.codYes' : 'ordersList.filter.codNo'),
        }))}
        value={filter.cod ?? 'any'}
        onChange={(value) => setFilter({ cod: value === 'any' ? null : (value as 'yes' | 'no') })}
        data-testid="filter-cod"
      />
      <Chip
        size="sm"
        color="red"
        variant="light"
        checked={filter.attention}
        onChange={(checked) => setFilter({ attention: checked })}
        data-testid="filter-attention"
      >
        {t('attention.filter')}
      </Chip>
      {narrowed && (
        <Button size="xs" variant="subtle" color="gray" onClick={clearFilters} data-testid="filter-clear">
          {t('ordersList.filter.clear')}
        </Button>
      )}
    </Group>
  );
}

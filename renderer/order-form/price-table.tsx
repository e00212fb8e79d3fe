import { Alert, Badge, Group, Loader, Table, Text, UnstyledButton } from '@mantine/core';
import { useEffect, useMemo } from 'react';
import { IconAlert } from '../components/icons';
import { errorTitle } from '../i18n/error-messages';
import { useFormat, useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { providerName, useProvidersStore } from '../stores/providers-store';
import { quoteRequestOf, quoteRows, type QuoteRow } from './quote-request';
import { useDebouncedCommand } from './use-debounced-command';

/** Pause after the last change of destination, weight or places before prices are asked for again. */
export const quoteDelayMs = 400;

/** The chosen tariff's price follows the table as weights and places change, so the order keeps the price it was sent at. */
function useChosenPriceKept(rows: readonly QuoteRow[]) {
  const order = useOrderFormStore((s) => s.values.order);
  const quoted = useOrderFormStore((s) => s.values.cost.quotedDeliveryCost);
  const setField = useOrderFormStore((s) => s.setField);
  const price = rows.find((r) => r.providerKey === order.providerKey && String(r.tariffId) === order.tariffId)?.price;
  useEffect(() => {
    if (price !== undefined && String(price) !== quoted) setField('cost', 'quotedDeliveryCost', String(price));
  }, [price, quoted, setField]);
}

/**
 * Prices and terms of every service side by side, recalculated as the destination, weights and
 * sizes change. Choosing a row sets the service, the tariff and both handover types. When prices
 * cannot be had (no connection, a service down) the message says so and the selects below still work.
 */
export function PriceTable() {
  const t = useT();
  const values = useOrderFormStore((s) => s.values);
  const chooseTariff = useOrderFormStore((s) => s.chooseTariff);
  const providers = useProvidersStore((s) => s.providers);
  const { money } = useFormat();
  const ask = useMemo(() => quoteRequestOf(values), [values]);
  const quotes = useDebouncedCommand('calculator.calculate', 'request' in ask ? ask.request : undefined, quoteDelayMs);
  // With nothing to ask (a fresh form) the last answer belongs to another parcel: its prices must not reach this one.
  const rows = useMemo(() => ('request' in ask && 'value' in quotes && quotes.value ? quoteRows(quotes.value) : []), [ask, quotes]);
  const unreachable = 'request' in ask && 'value' in quotes && quotes.value ? quotes.value.unreachable : [];
  useChosenPriceKept(rows);

  if ('missing' in ask) {
    return (
      <Text size="sm" c="dimmed" data-testid="price-table-hint">
        {t(ask.missing === 'cities' ? 'entry.prices.needCities' : 'entry.prices.needWeight')}
      </Text>
    );
  }
  const chosen = (r: QuoteRow) => values.order.providerKey === r.providerKey && values.order.tariffId === String(r.tariffId);
  return (
    <div data-testid="price-table">
      {quotes.status === 'error' && (
        <Alert color="orange" variant="light" icon={<IconAlert size={16} />} py={6} mb="xs" data-testid="price-table-error" title={t('entry.prices.failed')}>
          <Text size="xs">
            {errorTitle(quotes.error, t)}. {t('entry.prices.manual')}
          </Text>
        </Alert>
      )}
      <Group justify="space-between" mb={4}>
        <Text size="xs" c="dimmed">
          {t('entry.prices.caption')}
        </Text>
        {quotes.status === 'loading' && <Loader size={14} aria-label={t('entry.prices.loading')} />}
      </Group>
      {rows.length === 0 && unreachable.length === 0 && quotes.status === 'ready' ? (
        <Text size="sm" c="dimmed">
          {t('entry.prices.none')}
        </Text>
      ) : (
        <div style={{ maxHeight: 232, overflowY: 'auto' }}>
          <Table striped highlightOnHover verticalSpacing={3} horizontalSpacing="xs" fz="sm" stickyHeader>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('entry.prices.service')}</Table.Th>
                <Table.Th>{t('entry.prices.tariff')}</Table.Th>
                <Table.Th ta="right">{t('entry.prices.price')}</Table.Th>
                <Table.Th ta="right">{t('entry.prices.days')}</Table.Th>
                <Table.Th>{t('entry.prices.to')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => {
                const selected = chosen(r);
                const choose = () => chooseTariff(r);
                return (
                  <Table.Tr
                    key={`${r.providerKey}-${r.tariffId}`}
                    bg={selected ? 'var(--mantine-primary-color-light)' : undefined}
                    onClick={choose}
                    style={{ cursor: 'pointer' }}
                    data-testid="price-row"
                    data-selected={selected || undefined}
                  >
                    <Table.Td className="sd-ellipsis" maw={170}>
                      {/* The button makes the row reachable by Tab; its Enter or Space click reaches the row's handler. */}
                      <UnstyledButton fz="sm" aria-pressed={selected} className="sd-ellipsis" maw={170} title={providerName(providers, r.providerKey)}>
                        {providerName(providers, r.providerKey)}
                      </UnstyledButton>
                    </Table.Td>
                    <Table.Td className="sd-ellipsis" maw={190} title={r.tariffName}>
                      {r.tariffName}
                    </Table.Td>
                    <Table.Td ta="right" className="sd-numeric" fw={selected ? 600 : undefined}>
                      {money(r.price)}
                    </Table.Td>
                    <Table.Td ta="right" className="sd-numeric">
                      {r.daysMin === r.daysMax ? r.daysMin : `${r.daysMin}–${r.daysMax}`}
                    </Table.Td>
                    <Table.Td>
                      <Badge size="xs" variant="light" color={r.deliveryType === 2 ? 'teal' : 'blue'} radius="sm">
                        {t(r.deliveryType === 2 ? 'entry.prices.point' : 'entry.prices.door')}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
              {/* A service that could not be asked stays in the table, saying so, rather than silently missing. */}
              {unreachable.map((key) => (
                <Table.Tr key={`unreachable-${key}`} data-testid="price-row-unreachable" data-provider={key}>
                  <Table.Td className="sd-ellipsis" maw={170} title={providerName(providers, key)}>
                    {providerName(providers, key)}
                  </Table.Td>
                  <Table.Td colSpan={4}>
                    <Text size="sm" c="orange.8" title={t('entry.prices.unreachableHint')}>
                      {t('entry.prices.unreachable')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
    </div>
  );
}

import { Select } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { Tariff } from '../../shared/schemas/lists';
import { useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { useField } from './field-context';
import { tariffsOf } from '../stores/tariffs';

/** The chosen service's tariffs (empty until a service is chosen and its list has come). */
export function useServiceTariffs(): Tariff[] {
  const providerKey = useOrderFormStore((s) => s.values.order.providerKey);
  const [loaded, setLoaded] = useState<{ key: string; tariffs: Tariff[] }>();
  useEffect(() => {
    if (!providerKey) return;
    let current = true;
    void tariffsOf(providerKey).then((tariffs) => current && setLoaded({ key: providerKey, tariffs }));
    return () => {
      current = false;
    };
  }, [providerKey]);
  return loaded?.key === providerKey ? loaded.tariffs : [];
}

/** Whether a tariff serves the delivery and handover types chosen (null in a tariff means both). */
export const tariffFits = (tariff: Tariff, deliveryType: string, pickupType: string) =>
  (tariff.deliveryType === null || String(tariff.deliveryType) === deliveryType) && (tariff.pickupType === null || String(tariff.pickupType) === pickupType);

/**
 * The tariff chosen by hand, for when the price table cannot help (no connection) or the shop knows
 * what it wants. Choosing one sets the delivery and handover types it serves.
 */
export function TariffSelect() {
  const t = useT();
  const order = useOrderFormStore((s) => s.values.order);
  const chooseTariff = useOrderFormStore((s) => s.chooseTariff);
  const binding = useField('order.tariffId');
  const tariffs = useServiceTariffs();
  const known = tariffs.some((x) => String(x.id) === order.tariffId);
  // A tariff the list does not have (typed in a draft, or the list not loaded yet) still shows by its id.
  const data = [
    ...tariffs.map((x) => ({ value: String(x.id), label: `${x.name} · ${x.id}` })),
    ...(order.tariffId && !known ? [{ value: order.tariffId, label: order.tariffId }] : []),
  ];
  return (
    <Select
      label={t('entry.tariff.label')}
      placeholder={t(order.providerKey ? 'entry.tariff.placeholder' : 'entry.tariff.serviceFirst')}
      required
      {...binding}
      value={order.tariffId || null}
      data={data}
      disabled={!order.providerKey}
      searchable
      nothingFoundMessage={t('entry.tariff.none')}
      allowDeselect={false}
      checkIconPosition="right"
      onChange={(value) => {
        const tariff = tariffs.find((x) => String(x.id) === value);
        if (!tariff || !value) return;
        chooseTariff({
          providerKey: order.providerKey,
          tariffId: tariff.id,
          deliveryType: tariff.deliveryType ?? (order.deliveryType === '2' ? 2 : 1),
          pickupType: tariff.pickupType ?? (order.pickupType === '2' ? 2 : 1),
        });
      }}
      data-testid="tariff-select"
    />
  );
}

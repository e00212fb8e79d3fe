import { Badge, Grid, Group, Input, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import type { ProviderInfo } from '../../shared/contract/providers';
import { errorTitle } from '../i18n/error-messages';
import { useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { useProvidersStore } from '../stores/providers-store';
import { useFieldLabel } from './bound-inputs';
import { useField } from './field-context';
import { FormSection } from './form-section';
import type { DeliveryTypeValue, PickupTypeValue } from './form-values';
import { IntervalPicker } from './interval-picker';
import { DropOffPicker, PointPicker } from './point-picker';
import { PriceTable } from './price-table';
import { TariffSelect, tariffFits, useServiceTariffs } from './tariff-select';

/**
 * How the parcel goes: the price table first (service and tariff chosen from prices and terms), the
 * same choice by hand below it, then the office the shop brings the parcel to (handover at a
 * warehouse), then the pickup point or the delivery time, by delivery type.
 */
export function DeliveryFields() {
  const t = useT();
  const deliveryType = useOrderFormStore((s) => s.values.order.deliveryType);
  const pickupType = useOrderFormStore((s) => s.values.order.pickupType);
  return (
    <FormSection legend={t('form.section.delivery')} testId="delivery-fields">
      <Stack gap="sm">
        <PriceTable />
        <Grid gap="sm">
          <Grid.Col span={{ base: 12, xs: 6 }}>
            <ServiceSelect />
          </Grid.Col>
          <Grid.Col span={{ base: 12, xs: 6 }}>
            <TariffSelect />
          </Grid.Col>
          <Grid.Col span={{ base: 12, xs: 6 }}>
            <DeliveryTypeControl />
          </Grid.Col>
          <Grid.Col span={{ base: 12, xs: 6 }}>
            <PickupTypeControl />
          </Grid.Col>
        </Grid>
        {pickupType === '2' && <DropOffPicker />}
        {deliveryType === '2' ? <PointPicker /> : <IntervalPicker />}
      </Stack>
    </FormSection>
  );
}

/** Sets the delivery or handover type; a tariff that does not serve the new combination is cleared. */
function useTypeSetter(field: 'deliveryType' | 'pickupType') {
  const setField = useOrderFormStore((s) => s.setField);
  const tariffs = useServiceTariffs();
  return (value: string) => {
    setField('order', field, value);
    const { order } = useOrderFormStore.getState().values;
    const tariff = tariffs.find((x) => String(x.id) === order.tariffId);
    if (tariff && !tariffFits(tariff, order.deliveryType, order.pickupType)) setField('order', 'tariffId', '');
  };
}

function useSelectedProvider(): ProviderInfo | undefined {
  const key = useOrderFormStore((s) => s.values.order.providerKey);
  return useProvidersStore((s) => s.providers.find((p) => p.key === key));
}

function ServiceSelect() {
  const t = useT();
  const { providers, status, error } = useProvidersStore();
  const value = useOrderFormStore((s) => s.values.order.providerKey);
  const current = useOrderFormStore((s) => s.values.order);
  const setField = useOrderFormStore((s) => s.setField);
  const chooseService = useOrderFormStore((s) => s.chooseService);
  const binding = useField('order.providerKey');
  const selected = providers.find((p) => p.key === value);

  const choose = (key: string | null) => {
    if ((key ?? '') === value) return;
    chooseService(key ?? '');
    const provider = providers.find((p) => p.key === key);
    if (!provider) return;
    // Keep the delivery and handover choices valid for the new service.
    const { deliveryTypes, pickupTypes } = provider.capabilities;
    if (deliveryTypes.length && !deliveryTypes.includes(Number(current.deliveryType))) setField('order', 'deliveryType', String(deliveryTypes[0]));
    if (pickupTypes.length && !pickupTypes.includes(Number(current.pickupType))) setField('order', 'pickupType', String(pickupTypes[0]));
  };

  const loadError = status === 'error' && error ? `${t('form.service.loadError')}: ${errorTitle(error, t)}` : undefined;
  return (
    <Select
      label={useFieldLabel('providerKey')}
      placeholder={t('form.service.placeholder')}
      required
      {...binding}
      error={binding.error ?? loadError}
      value={value || null}
      onChange={choose}
      data={providers.map((p) => ({ value: p.key, label: p.test ? `${p.name} (${t('form.service.test')})` : p.name }))}
      renderOption={({ option }) => {
        const provider = providers.find((p) => p.key === option.value);
        return (
          <Group gap="xs" wrap="nowrap" justify="space-between" w="100%">
            <Text size="sm">{provider?.name ?? option.label}</Text>
            {provider?.test && (
              <Badge size="xs" variant="light" color="orange" radius="sm">
                {t('form.service.test')}
              </Badge>
            )}
          </Group>
        );
      }}
      nothingFoundMessage={t('form.service.none')}
      description={selected?.description || undefined}
      allowDeselect={false}
      checkIconPosition="right"
      data-testid="service-select"
    />
  );
}

function DeliveryTypeControl() {
  const t = useT();
  const value = useOrderFormStore((s) => s.values.order.deliveryType);
  const setType = useTypeSetter('deliveryType');
  const supported = useSelectedProvider()?.capabilities.deliveryTypes;
  const binding = useField('order.deliveryType');
  const label = useFieldLabel('deliveryType');
  const option = (v: DeliveryTypeValue, text: string) => ({
    value: v,
    label: text,
    disabled: !!supported?.length && !supported.includes(Number(v)),
  });
  return (
    <Input.Wrapper label={label} error={binding.error} labelElement="div" id={binding.id}>
      <SegmentedControl
        fullWidth
        size="sm"
        value={value}
        onChange={setType}
        data={[option('1', t('form.deliveryType.door')), option('2', t('form.deliveryType.point'))]}
        aria-label={label}
        name="deliveryType"
        data-testid="delivery-type"
      />
    </Input.Wrapper>
  );
}

function PickupTypeControl() {
  const t = useT();
  const value = useOrderFormStore((s) => s.values.order.pickupType);
  const setType = useTypeSetter('pickupType');
  const supported = useSelectedProvider()?.capabilities.pickupTypes;
  const binding = useField('order.pickupType');
  const label = useFieldLabel('pickupType');
  const option = (v: PickupTypeValue, text: string) => ({
    value: v,
    label: text,
    disabled: !!supported?.length && !supported.includes(Number(v)),
  });
  return (
    <Input.Wrapper label={label} error={binding.error} labelElement="div" id={binding.id}>
      <SegmentedControl
        fullWidth
        size="sm"
        value={value}
        onChange={setType}
        data={[option('1', t('form.pickupType.door')), option('2', t('form.pickupType.warehouse'))]}
        aria-label={label}
        name="pickupType"
        data-testid="pickup-type"
      />
    </Input.Wrapper>
  );
}

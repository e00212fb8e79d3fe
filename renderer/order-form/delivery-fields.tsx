import { Badge, Grid, Group, Input, SegmentedControl, Select, Text } from '@mantine/core';
import type { ProviderInfo } from '../../shared/contract/providers';
import { errorTitle } from '../i18n/error-messages';
import { useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { useProvidersStore } from '../stores/providers-store';
import { BoundDecimalInput, BoundTextInput, useFieldLabel } from './bound-inputs';
import { useField } from './field-context';
import { FormSection } from './form-section';
import type { DeliveryTypeValue, PickupTypeValue } from './form-values';

/** Service, tariff, delivery and handover types, pickup point, order number and weight. */
export function DeliveryFields() {
  const t = useT();
  const deliveryType = useOrderFormStore((s) => s.values.order.deliveryType);
  // The drawer focuses the first field still to fill: the service, or the order number when the
  // service carried over from the previous order.
  const hasService = useOrderFormStore((s) => s.values.order.providerKey !== '');
  return (
    <FormSection legend={t('form.section.delivery')}>
      <Grid gap="sm">
        <Grid.Col span={{ base: 12, xs: 8 }}>
          <ServiceSelect />
        </Grid.Col>
        <Grid.Col span={{ base: 12, xs: 4 }}>
          <BoundDecimalInput group="order" field="tariffId" integer required />
        </Grid.Col>
        <Grid.Col span={{ base: 12, xs: 6 }}>
          <DeliveryTypeControl />
        </Grid.Col>
        <Grid.Col span={{ base: 12, xs: 6 }}>
          <PickupTypeControl />
        </Grid.Col>
        <Grid.Col span={{ base: 12, xs: 4 }}>
          <BoundTextInput group="order" field="clientNumber" required autoComplete="off" data-autofocus={hasService || undefined} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, xs: 4 }}>
          <BoundDecimalInput group="order" field="weight" integer required />
        </Grid.Col>
        {deliveryType === '2' && (
          <Grid.Col span={{ base: 12, xs: 4 }}>
            <BoundDecimalInput group="order" field="pointOutId" integer required data-autofocus />
          </Grid.Col>
        )}
      </Grid>
    </FormSection>
  );
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
  const binding = useField('order.providerKey');
  const selected = providers.find((p) => p.key === value);

  const choose = (key: string | null) => {
    setField('order', 'providerKey', key ?? '');
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
      data-autofocus={value ? undefined : true}
      data-testid="service-select"
    />
  );
}

function DeliveryTypeControl() {
  const t = useT();
  const value = useOrderFormStore((s) => s.values.order.deliveryType);
  const setField = useOrderFormStore((s) => s.setField);
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
        onChange={(v) => setField('order', 'deliveryType', v as DeliveryTypeValue)}
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
  const setField = useOrderFormStore((s) => s.setField);
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
        onChange={(v) => setField('order', 'pickupType', v as PickupTypeValue)}
        data={[option('1', t('form.pickupType.door')), option('2', t('form.pickupType.warehouse'))]}
        aria-label={label}
        name="pickupType"
        data-testid="pickup-type"
      />
    </Input.Wrapper>
  );
}

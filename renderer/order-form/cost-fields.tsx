import { Grid, Text } from '@mantine/core';
import { useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { useProvidersStore } from '../stores/providers-store';
import { BoundDecimalInput } from './bound-inputs';
import { FormSection } from './form-section';

/** Assessed value and cash on delivery, in rubles with kopecks. */
export function CostFields() {
  const t = useT();
  const providerKey = useOrderFormStore((s) => s.values.order.providerKey);
  const codSupported = useProvidersStore((s) => s.providers.find((p) => p.key === providerKey)?.capabilities.cod ?? true);
  const codWarning = codSupported ? undefined : (
    <Text span fz="xs" c="orange">
      {t('form.codUnsupported')}
    </Text>
  );
  return (
    <FormSection legend={t('form.section.cost')}>
      <Grid gap="sm">
        <Grid.Col span={{ base: 12, xs: 6 }}>
          <BoundDecimalInput group="cost" field="assessedCost" required />
        </Grid.Col>
        <Grid.Col span={{ base: 12, xs: 6 }}>
          <BoundDecimalInput group="cost" field="codCost" required description={codWarning} />
        </Grid.Col>
      </Grid>
    </FormSection>
  );
}

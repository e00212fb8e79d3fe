import { Anchor, Grid, Text, TextInput } from '@mantine/core';
import { useFormat, useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { useProvidersStore } from '../stores/providers-store';
import { BoundDecimalInput, useFieldLabel } from './bound-inputs';
import { useField } from './field-context';
import { FormSection } from './form-section';
import { itemsTotalKopecks } from './form-values';

/** Assessed value and cash on delivery, in rubles with kopecks; the COD follows the items' total until typed over. */
export function CostFields() {
  const t = useT();
  return (
    <FormSection legend={t('form.section.cost')} testId="cost-fields">
      <Grid gap="sm">
        <Grid.Col span={{ base: 12, xs: 6 }}>
          <BoundDecimalInput group="cost" field="assessedCost" required />
        </Grid.Col>
        <Grid.Col span={{ base: 12, xs: 6 }}>
          <CodInput />
        </Grid.Col>
      </Grid>
    </FormSection>
  );
}

function CodInput() {
  const t = useT();
  const { money } = useFormat();
  const value = useOrderFormStore((s) => s.values.cost.codCost);
  const manual = useOrderFormStore((s) => s.values.codManual);
  const totalKopecks = useOrderFormStore((s) => itemsTotalKopecks(s.values.places));
  const providerKey = useOrderFormStore((s) => s.values.order.providerKey);
  const setCod = useOrderFormStore((s) => s.setCod);
  const follow = useOrderFormStore((s) => s.followItemsTotal);
  const codSupported = useProvidersStore((s) => s.providers.find((p) => p.key === providerKey)?.capabilities.cod ?? true);
  const binding = useField('cost.codCost');
  const total = money(totalKopecks / 100);
  const hint = manual ? (
    <>
      {t('entry.cod.manual', { total })}{' '}
      <Anchor component="button" type="button" fz="xs" onClick={follow} data-testid="cod-follow">
        {t('entry.cod.follow')}
      </Anchor>
    </>
  ) : (
    t('entry.cod.auto')
  );
  return (
    <TextInput
      label={useFieldLabel('codCost')}
      required
      {...binding}
      value={value}
      onChange={(e) => setCod(e.currentTarget.value)}
      inputMode="decimal"
      autoComplete="off"
      description={
        <>
          <span data-testid="cod-hint">{hint}</span>
          {!codSupported && (
            <Text span fz="xs" c="orange" display="block">
              {t('form.codUnsupported')}
            </Text>
          )}
        </>
      }
    />
  );
}

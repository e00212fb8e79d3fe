import { Anchor, Checkbox, Grid, Text, TextInput } from '@mantine/core';
import { useFormat, useLanguage, useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { useProvidersStore } from '../stores/providers-store';
import { BoundDecimalInput, useFieldLabel } from './bound-inputs';
import { useField } from './field-context';
import { FormSection } from './form-section';
import { followedCodKopecks, numberOf } from './form-values';

/**
 * Assessed value, what the recipient pays for delivery, and cash on delivery, in rubles with kopecks;
 * the COD follows the items' total (with the delivery charge when ticked) until typed over.
 */
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
        <Grid.Col span={{ base: 12, xs: 6 }}>
          <DeliveryChargeInput />
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
  const totalKopecks = useOrderFormStore((s) => followedCodKopecks(s.values));
  const providerKey = useOrderFormStore((s) => s.values.order.providerKey);
  const setCod = useOrderFormStore((s) => s.setCod);
  const follow = useOrderFormStore((s) => s.followItemsTotal);
  const codSupported = useProvidersStore((s) => s.providers.find((p) => p.key === providerKey)?.capabilities.cod ?? true);
  const binding = useField('cost.codCost');
  const language = useLanguage();
  // The followed amount is written as the language writes decimals; what the user types stays as typed.
  const shown = !manual && language === 'ru' ? value.replace('.', ',') : value;
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
      value={shown}
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

/** What the recipient pays for delivery (cost.deliveryCost), optionally collected with the COD; the service's price beside it. */
function DeliveryChargeInput() {
  const t = useT();
  const { money } = useFormat();
  const quoted = useOrderFormStore((s) => numberOf(s.values.cost.quotedDeliveryCost));
  const included = useOrderFormStore((s) => s.values.codIncludesDelivery);
  const setIncluded = useOrderFormStore((s) => s.setCodIncludesDelivery);
  return (
    <>
      <BoundDecimalInput
        group="cost"
        field="deliveryCost"
        description={<span data-testid="quoted-delivery">{quoted === undefined ? t('entry.delivery.noQuote') : t('entry.delivery.quoted', { price: money(quoted) })}</span>}
      />
      <Checkbox
        mt={6}
        size="xs"
        label={t('entry.delivery.addToCod')}
        checked={included}
        onChange={(e) => setIncluded(e.currentTarget.checked)}
        data-testid="delivery-in-cod"
      />
    </>
  );
}

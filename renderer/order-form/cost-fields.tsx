import { Anchor, Checkbox, Grid, Text, TextInput } from '@mantine/core';
import { useFormat, useLanguage, useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { useProvidersStore } from '../stores/providers-store';
import { BoundDecimalInput, useFieldLabel } from './bound-inputs';
import { useField } from './field-context';
import { FormSection } from './form-section';
import { followedCodKopecks, itemsTotalKopecks, numberOf } from './form-values';
import type { PlainMessageKey } from '../i18n/types';

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
          <AssessedInput />
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

/** The declared value: the items' total until typed over, like the cash on delivery. */
function AssessedInput() {
  const totalKopecks = useOrderFormStore((s) => itemsTotalKopecks(s.values.places));
  return (
    <FollowedMoneyInput
      field="assessedCost"
      value={useOrderFormStore((s) => s.values.cost.assessedCost)}
      manual={useOrderFormStore((s) => s.values.assessedManual)}
      totalKopecks={totalKopecks}
      onType={useOrderFormStore((s) => s.setAssessed)}
      onFollow={useOrderFormStore((s) => s.followItemsForAssessed)}
      autoHint="entry.assessed.auto"
      testId="assessed"
    />
  );
}

function CodInput() {
  const t = useT();
  const providerKey = useOrderFormStore((s) => s.values.order.providerKey);
  const codSupported = useProvidersStore((s) => s.providers.find((p) => p.key === providerKey)?.capabilities.cod ?? true);
  return (
    <FollowedMoneyInput
      field="codCost"
      value={useOrderFormStore((s) => s.values.cost.codCost)}
      manual={useOrderFormStore((s) => s.values.codManual)}
      totalKopecks={useOrderFormStore((s) => followedCodKopecks(s.values))}
      onType={useOrderFormStore((s) => s.setCod)}
      onFollow={useOrderFormStore((s) => s.followItemsTotal)}
      autoHint="entry.cod.auto"
      testId="cod"
      warning={codSupported ? undefined : t('form.codUnsupported')}
    />
  );
}

/** An amount that follows a total worked out from the items until the user types their own; a link brings it back. */
function FollowedMoneyInput(props: {
  field: 'assessedCost' | 'codCost';
  value: string;
  manual: boolean;
  totalKopecks: number;
  onType: (value: string) => void;
  onFollow: () => void;
  autoHint: PlainMessageKey;
  testId: string;
  warning?: string;
}) {
  const { field, value, manual, totalKopecks, onType, onFollow, autoHint, testId, warning } = props;
  const t = useT();
  const { money } = useFormat();
  const binding = useField(`cost.${field}`);
  const language = useLanguage();
  // The followed amount is written as the language writes decimals; what the user types stays as typed.
  const shown = !manual && language === 'ru' ? value.replace('.', ',') : value;
  const hint = manual ? (
    <>
      {t('entry.cod.manual', { total: money(totalKopecks / 100) })}{' '}
      <Anchor component="button" type="button" fz="xs" onClick={onFollow} data-testid={`${testId}-follow`}>
        {t('entry.cod.follow')}
      </Anchor>
    </>
  ) : (
    t(autoHint)
  );
  return (
    <TextInput
      label={useFieldLabel(field)}
      required
      {...binding}
      value={shown}
      onChange={(e) => onType(e.currentTarget.value)}
      inputMode="decimal"
      autoComplete="off"
      description={
        <>
          <span data-testid={`${testId}-hint`}>{hint}</span>
          {warning && (
            <Text span fz="xs" c="orange" display="block">
              {warning}
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

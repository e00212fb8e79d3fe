import { Grid } from '@mantine/core';
import { useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { BoundTextInput } from './bound-inputs';
import { firstClientNumber } from './next-number';
import { FormSection } from './form-section';

/** The shop's own number of the order, first: it is what the shop looks orders up by. */
export function OrderNumberField() {
  const t = useT();
  const offered = useOrderFormStore((s) => s.offeredNumber !== null && s.values.order.clientNumber === s.offeredNumber);
  const first = useOrderFormStore((s) => s.offeredFirst);
  return (
    <FormSection legend={t('entry.section.order')} testId="order-fields">
      <Grid gap="sm">
        <Grid.Col span={{ base: 12, xs: 6 }}>
          <BoundTextInput
            group="order"
            field="clientNumber"
            required
            autoComplete="off"
            data-autofocus
            description={offered ? <span data-testid="number-offered">{first ? t('entry.number.offeredFirst', { number: firstClientNumber }) : t('entry.number.offered')}</span> : undefined}
          />
        </Grid.Col>
      </Grid>
    </FormSection>
  );
}

import { Grid } from '@mantine/core';
import { useLayoutEffect } from 'react';
import { useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { BoundTextInput } from './bound-inputs';
import { firstClientNumber } from './next-number';
import { fieldDomId } from './form-values';
import { FormSection } from './form-section';

/** The shop's own number of the order, first: it is what the shop looks orders up by. */
export function OrderNumberField() {
  const t = useT();
  const offered = useOrderFormStore((s) => s.offeredNumber !== null && s.values.order.clientNumber === s.offeredNumber);
  const first = useOrderFormStore((s) => s.offeredFirst);
  // The offer may land while the user is already in the field (it has the focus when the form opens): it comes
  // selected, so what they type replaces it instead of being appended to it ("1001DROP-1").
  useLayoutEffect(() => {
    const input = document.getElementById(fieldDomId('order.clientNumber'));
    if (offered && input instanceof HTMLInputElement && input === document.activeElement) input.select();
  }, [offered]);
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

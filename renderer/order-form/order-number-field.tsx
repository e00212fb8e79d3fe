import { Grid } from '@mantine/core';
import { useT } from '../i18n/use-t';
import { BoundTextInput } from './bound-inputs';
import { FormSection } from './form-section';

/** The shop's own number of the order, first: it is what the shop looks orders up by. */
export function OrderNumberField() {
  const t = useT();
  return (
    <FormSection legend={t('entry.section.order')} testId="order-fields">
      <Grid gap="sm">
        <Grid.Col span={{ base: 12, xs: 6 }}>
          <BoundTextInput group="order" field="clientNumber" required autoComplete="off" data-autofocus />
        </Grid.Col>
      </Grid>
    </FormSection>
  );
}

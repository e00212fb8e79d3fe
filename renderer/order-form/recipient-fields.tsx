import { Grid, SegmentedControl } from '@mantine/core';
import { useT } from '../i18n/use-t';
import { useOrderFormStore } from '../stores/order-form-store';
import { AddressPartsFields, PostcodeField } from './address-parts-fields';
import { BoundTextInput } from './bound-inputs';
import { FormSection } from './form-section';
import type { AddressMode } from './form-values';

/** Who receives the parcel and where: the address as parts, or as one line the service reads. */
export function RecipientFields() {
  const t = useT();
  const mode = useOrderFormStore((s) => s.values.recipientAddressMode);
  const setMode = useOrderFormStore((s) => s.setRecipientAddressMode);
  return (
    <FormSection legend={t('form.section.recipient')} testId="recipient-fields">
      <Grid gap="sm">
        <Grid.Col span={{ base: 12, xs: 4 }}>
          <BoundTextInput group="recipient" field="contactName" required autoComplete="section-recipient name" />
        </Grid.Col>
        <Grid.Col span={{ base: 12, xs: 4 }}>
          <BoundTextInput group="recipient" field="phone" required type="tel" autoComplete="section-recipient tel" />
        </Grid.Col>
        <Grid.Col span={{ base: 12, xs: 4 }}>
          <BoundTextInput group="recipient" field="email" type="email" autoComplete="section-recipient email" />
        </Grid.Col>
        <Grid.Col span={12}>
          <SegmentedControl
            size="xs"
            value={mode}
            onChange={(v) => setMode(v as AddressMode)}
            aria-label={t('entry.address.mode')}
            data={[
              { value: 'parts', label: t('entry.address.parts') },
              { value: 'line', label: t('entry.address.line') },
            ]}
            data-testid="address-mode"
          />
        </Grid.Col>
        {mode === 'line' ? (
          <>
            <PostcodeField group="recipient" span={{ base: 12, xs: 3 }} />
            <Grid.Col span={{ base: 12, xs: 9 }}>
              <BoundTextInput
                group="recipient"
                field="addressString"
                required
                placeholder={t('entry.address.linePlaceholder')}
                description={t('entry.address.lineHint')}
                autoComplete="section-recipient street-address"
              />
            </Grid.Col>
          </>
        ) : (
          <AddressPartsFields group="recipient" />
        )}
      </Grid>
    </FormSection>
  );
}

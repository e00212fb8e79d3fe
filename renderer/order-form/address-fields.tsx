import { Grid } from '@mantine/core';
import { useT } from '../i18n/use-t';
import { BoundTextInput } from './bound-inputs';
import { FormSection } from './form-section';

/** Contact and address of the recipient or the sender. The recipient also has an e-mail. */
export function AddressFields({ group }: { group: 'recipient' | 'sender' }) {
  const t = useT();
  const half = { base: 12, xs: group === 'recipient' ? 4 : 6 };
  return (
    <FormSection legend={t(group === 'recipient' ? 'form.section.recipient' : 'form.section.sender')} testId={`${group}-fields`}>
      <Grid gap="sm">
        <Grid.Col span={half}>
          <BoundTextInput group={group} field="contactName" required autoComplete={`section-${group} name`} />
        </Grid.Col>
        <Grid.Col span={half}>
          <BoundTextInput group={group} field="phone" required type="tel" autoComplete={`section-${group} tel`} />
        </Grid.Col>
        {group === 'recipient' && (
          <Grid.Col span={half}>
            <BoundTextInput group="recipient" field="email" type="email" autoComplete="section-recipient email" />
          </Grid.Col>
        )}
        <Grid.Col span={{ base: 12, xs: 4 }}>
          <BoundTextInput group={group} field="city" required autoComplete={`section-${group} address-level2`} />
        </Grid.Col>
        <Grid.Col span={{ base: 8, xs: 5 }}>
          <BoundTextInput group={group} field="street" autoComplete={`section-${group} address-line1`} />
        </Grid.Col>
        <Grid.Col span={{ base: 4, xs: 3 }}>
          <BoundTextInput group={group} field="house" autoComplete="off" />
        </Grid.Col>
      </Grid>
    </FormSection>
  );
}

import { Grid } from '@mantine/core';
import { BoundTextInput } from './bound-inputs';

/** City, street, house and flat of the sender or the recipient, one row, with the browser's autofill sections kept apart. */
export function AddressPartsFields({ group }: { group: 'sender' | 'recipient' }) {
  const section = `section-${group}`;
  return (
    <>
      <Grid.Col span={{ base: 12, xs: 4 }}>
        <BoundTextInput group={group} field="city" required autoComplete={`${section} address-level2`} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, xs: 3 }}>
        <BoundTextInput group={group} field="street" autoComplete={`${section} address-line1`} />
      </Grid.Col>
      <Grid.Col span={{ base: 6, xs: 2 }}>
        <BoundTextInput group={group} field="house" autoComplete="off" />
      </Grid.Col>
      <Grid.Col span={{ base: 6, xs: 3 }}>
        <BoundTextInput group={group} field="office" autoComplete="off" />
      </Grid.Col>
    </>
  );
}

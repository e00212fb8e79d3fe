import { Grid } from '@mantine/core';
import { BoundTextInput } from './bound-inputs';

/** The postcode box of the sender or the recipient: six digits for Russia, checked by the shared schema. */
export function PostcodeField({ group, span = { base: 12, xs: 3 } }: { group: 'sender' | 'recipient'; span?: { base: number; xs: number } }) {
  return (
    <Grid.Col span={span}>
      <BoundTextInput group={group} field="index" inputMode="numeric" maxLength={20} autoComplete={`section-${group} postal-code`} />
    </Grid.Col>
  );
}

/**
 * Postcode, city and street of the sender or the recipient on one row, house and flat below (on one row the flat's
 * label wrapped and its box dropped out of line), with the browser's autofill sections kept apart.
 */
export function AddressPartsFields({ group }: { group: 'sender' | 'recipient' }) {
  const section = `section-${group}`;
  return (
    <>
      <PostcodeField group={group} />
      <Grid.Col span={{ base: 12, xs: 4 }}>
        <BoundTextInput group={group} field="city" required autoComplete={`${section} address-level2`} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, xs: 5 }}>
        <BoundTextInput group={group} field="street" autoComplete={`${section} address-line1`} />
      </Grid.Col>
      <Grid.Col span={{ base: 6, xs: 3 }}>
        <BoundTextInput group={group} field="house" autoComplete="off" />
      </Grid.Col>
      <Grid.Col span={{ base: 6, xs: 3 }}>
        <BoundTextInput group={group} field="office" autoComplete="off" />
      </Grid.Col>
    </>
  );
}

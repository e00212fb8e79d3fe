import { Stack } from '@mantine/core';
import { useMemo, type FormEvent } from 'react';
import { useOrderFormStore } from '../stores/order-form-store';
import { CostFields } from './cost-fields';
import { DeliveryFields } from './delivery-fields';
import { ExtraServices } from './extra-services';
import { ClientErrorsContext } from './field-context';
import { FormFooter } from './form-footer';
import { OrderNumberField } from './order-number-field';
import { PlacesFields } from './places-fields';
import { RecipientFields } from './recipient-fields';
import { SenderFields } from './sender-fields';
import { useSubmitOrder } from './use-submit-order';
import { validateOrderForm } from './validate-order-form';

/**
 * The create-order form, in the order a shop fills it: number, who and where, what (places and
 * items), how much, then how it goes (prices, service, point or time), extras, and the sender last
 * (it is filled from the saved profile).
 */
export function OrderForm() {
  const values = useOrderFormStore((s) => s.values);
  const extraTypes = useOrderFormStore((s) => s.extraTypes);
  const clientErrors = useMemo(() => validateOrderForm(values, extraTypes).errors, [values, extraTypes]);
  const send = useSubmitOrder();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };

  return (
    <ClientErrorsContext.Provider value={clientErrors}>
      <form onSubmit={onSubmit} noValidate data-testid="order-form" aria-labelledby="order-form-title">
        <Stack gap="lg" px="md" pt="md" pb="lg">
          <OrderNumberField />
          <RecipientFields />
          <PlacesFields />
          <CostFields />
          <DeliveryFields />
          <ExtraServices />
          <SenderFields />
        </Stack>
        <FormFooter />
      </form>
    </ClientErrorsContext.Provider>
  );
}

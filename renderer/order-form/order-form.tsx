import { Stack } from '@mantine/core';
import { useMemo, type FormEvent } from 'react';
import { useOrderFormStore } from '../stores/order-form-store';
import { AddressFields } from './address-fields';
import { CostFields } from './cost-fields';
import { DeliveryFields } from './delivery-fields';
import { ClientErrorsContext } from './field-context';
import { FormFooter } from './form-footer';
import { ItemsFields } from './items-fields';
import { useSubmitOrder } from './use-submit-order';
import { validateOrderForm } from './validate-order-form';

/** The create-order form: sections, and a footer with errors and buttons. */
export function OrderForm() {
  const values = useOrderFormStore((s) => s.values);
  const clientErrors = useMemo(() => validateOrderForm(values).errors, [values]);
  const send = useSubmitOrder();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };

  return (
    <ClientErrorsContext.Provider value={clientErrors}>
      <form
        onSubmit={onSubmit}
        noValidate
        data-testid="order-form"
        aria-labelledby="order-form-title"
      >
        <Stack gap="lg" px="md" pt="md" pb="lg">
          <DeliveryFields />
          <AddressFields group="recipient" />
          <AddressFields group="sender" />
          <CostFields />
          <ItemsFields />
        </Stack>
        <FormFooter />
      </form>
    </ClientErrorsContext.Provider>
  );
}

import { useCallback } from 'react';
import { useOrderFormStore } from '../stores/order-form-store';
import { fieldDomId } from './form-values';

/** Submits the form and, when it is refused, puts the cursor in the first field to fix. */
export function useSubmitOrder(): () => Promise<void> {
  const submit = useOrderFormStore((s) => s.submit);
  return useCallback(async () => {
    const outcome = await submit();
    if (!outcome.ok && outcome.focusPath) document.getElementById(fieldDomId(outcome.focusPath))?.focus();
  }, [submit]);
}

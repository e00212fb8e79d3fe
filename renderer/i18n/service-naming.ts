import { useEffect, useMemo } from 'react';
import { providerName, useProvidersStore } from '../stores/providers-store';
import type { Naming } from './error-messages';

/**
 * How a keyed message names a delivery service in this window: the company's name for it ("Экспресс
 * (песочница)" for `sandbox-express`), loaded once if no page has loaded the services yet.
 */
export function useServiceNaming(): Naming {
  const providers = useProvidersStore((s) => s.providers);
  useEffect(() => {
    void useProvidersStore.getState().load();
  }, []);
  return useMemo(() => ({ service: (key: string) => providerName(providers, key) }), [providers]);
}

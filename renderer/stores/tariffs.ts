import type { Tariff } from '../../shared/schemas/lists';
import { getTransport } from '../transport/current';

/** Tariffs by service for this window: reference data, asked for once per service. */
const tariffsByService = new Map<string, Promise<Tariff[]>>();

/** A service's tariffs; a failed answer is forgotten so the next call asks again. */
export function tariffsOf(providerKey: string): Promise<Tariff[]> {
  let pending = tariffsByService.get(providerKey);
  if (!pending) {
    pending = getTransport()
      .invoke('lists.tariffs', { providerKey })
      .then((result) => {
        if (result.ok) return result.value;
        tariffsByService.delete(providerKey); // ask again next time
        return [];
      });
    tariffsByService.set(providerKey, pending);
  }
  return pending;
}

import type { ProviderInfo } from '../../../shared/contract/providers';
import type { DeliveryProvider } from './provider';

/** The delivery services the app can use, by key. */
export interface ProviderRegistry {
  get(key: string): DeliveryProvider | undefined;
  list(): ProviderInfo[];
  all(): DeliveryProvider[];
}

export function createProviderRegistry(providers: DeliveryProvider[]): ProviderRegistry {
  const byKey = new Map(providers.map((p) => [p.info.key, p]));
  if (byKey.size !== providers.length) throw new Error('Two delivery services share a key');
  return {
    get: (key) => byKey.get(key),
    list: () => providers.map((p) => p.info),
    all: () => [...providers],
  };
}

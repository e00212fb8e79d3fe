import type { ProviderInfo } from '../../../shared/contract/providers';
import { operationsOf, type Carrier } from './provider';

/** The delivery services the app can use, by key. */
export interface ProviderRegistry {
  get(key: string): Carrier | undefined;
  /** What /lists/providers shows: each carrier's description with the operations it declares. */
  list(): ProviderInfo[];
  all(): Carrier[];
}

/** A carrier's description with its declared operations filled in. */
export function describeCarrier(carrier: Carrier): ProviderInfo {
  const operations = operationsOf(carrier);
  return {
    ...carrier.info,
    capabilities: {
      ...carrier.info.capabilities,
      operations,
      labels: operations.includes('labels'),
      handoverActs: operations.includes('handoverActs'),
      courierCalls: operations.includes('courierCalls'),
      batches: operations.includes('batches'),
    },
  };
}

/** Registers each carrier once; two with one key are a programming error. */
export function createProviderRegistry(carriers: Carrier[]): ProviderRegistry {
  const byKey = new Map(carriers.map((c) => [c.info.key, c]));
  if (byKey.size !== carriers.length) throw new Error('Two delivery services share a key');
  return {
    get: (key) => byKey.get(key),
    list: () => carriers.map(describeCarrier),
    all: () => [...carriers],
  };
}

import type { Carrier } from '../provider';
import { describeCarrier, type ProviderRegistry } from '../registry';

/**
 * The app's registry plus the services that exist because the shop connected an account. Looked up on
 * every call, so a connection created, changed or removed takes effect at once (no app restart).
 */
export function withConnections(
  base: ProviderRegistry,
  connected: { providers(): Carrier[]; /** A service not listed any more that still serves its old orders. */ provider?(key: string): Carrier | undefined },
): ProviderRegistry {
  const extra = () => connected.providers().filter((p) => !base.get(p.info.key));
  return {
    get: (key) => base.get(key) ?? extra().find((p) => p.info.key === key) ?? connected.provider?.(key),
    list: () => [...base.list(), ...extra().map(describeCarrier)],
    all: () => [...base.all(), ...extra()],
  };
}

import { ProviderUnavailableError, type DeliveryProvider } from '../../electron/core/providers/provider';

/** The calls that cross the network to a delivery service; `check` reads local reference data and keeps working. */
const networkCalls = ['register', 'find', 'update', 'cancel', 'remove', 'track'] as const;

/**
 * A pretend network cable for the app's delivery services (AppOptions.wrapProvider): while it is
 * unplugged every call a service would make over the network fails the way a dead connection does
 * (ProviderUnavailableError, which the outbox retries), and plugging it back lets them through again.
 */
export function networkSwitch() {
  let offline = false;
  let refused = 0;

  /** The service as the app sees it through the cable; methods it lacks stay absent (they are its capabilities). */
  const wrap = (provider: DeliveryProvider): DeliveryProvider => {
    const wrapped: Record<string, unknown> = { info: provider.info, check: provider.check.bind(provider) };
    for (const name of networkCalls) {
      const call = provider[name] as ((...args: unknown[]) => Promise<unknown>) | undefined;
      if (typeof call !== 'function') continue;
      wrapped[name] = (...args: unknown[]) => {
        if (offline) {
          refused++;
          return Promise.reject(new ProviderUnavailableError(`fetch failed: ${provider.info.key} is unreachable (network is down)`));
        }
        return call.apply(provider, args);
      };
    }
    return wrapped as unknown as DeliveryProvider;
  };

  return {
    wrap,
    unplug: () => {
      offline = true;
    },
    plugIn: () => {
      offline = false;
    },
    get offline() {
      return offline;
    },
    /** Calls that failed because the cable was out. */
    get refused() {
      return refused;
    },
  };
}
export type NetworkSwitch = ReturnType<typeof networkSwitch>;

import { ProviderUnavailableError, type Carrier } from '../../electron/core/providers/provider';

/**
 * The calls that cross the network to a delivery service. `check` reads local reference data and keeps
 * working; so do `rates` and `intervals` of the sandbox services these tests run, which come from local
 * tariff tables (a shop offline still compares prices and chooses a tariff).
 */
const networkCalls = ['register', 'find', 'update', 'cancel', 'remove', 'track', 'labels', 'handoverAct'] as const;

/**
 * A pretend network cable for the app's delivery services (AppOptions.wrapProvider): while it is
 * unplugged every call a service would make over the network fails the way a dead connection does
 * (ProviderUnavailableError, which the outbox retries), and plugging it back lets them through again.
 */
export function networkSwitch() {
  let offline = false;
  let refused = 0;

  /** The service as the app sees it through the cable; methods it lacks stay absent (they are its capabilities). */
  const wrap = (provider: Carrier): Carrier => {
    const cable = (target: object, call: (...args: unknown[]) => Promise<unknown>) => (...args: unknown[]) => {
      if (offline) {
        refused++;
        return Promise.reject(new ProviderUnavailableError(`fetch failed: ${provider.info.key} is unreachable (network is down)`));
      }
      return call.apply(target, args);
    };
    const wrapped: Record<string, unknown> = { info: provider.info, check: provider.check.bind(provider) };
    for (const name of ['rates', 'intervals'] as const) if (typeof provider[name] === 'function') wrapped[name] = provider[name]!.bind(provider);
    for (const name of networkCalls) {
      const call = provider[name] as ((...args: unknown[]) => Promise<unknown>) | undefined;
      if (typeof call === 'function') wrapped[name] = cable(provider, call);
    }
    const calls = provider.courierCalls;
    if (calls) wrapped.courierCalls = { create: cable(calls, calls.create as never), cancel: cable(calls, calls.cancel as never) };
    return wrapped as unknown as Carrier;
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

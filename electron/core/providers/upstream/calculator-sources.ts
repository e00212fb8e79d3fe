import type { PricingProvider } from '../../calculator/pricing-provider';
import type { IntervalSource } from '../../intervals/interval-source';

/**
 * The calculator's and the intervals' per-service registries are fixed maps built at start; the
 * upstream's services come and go with its connections. These maps answer a key they do not hold by
 * asking the upstream connections, so an upstream service is priced and scheduled by its upstream.
 */
class Fallback<V> extends Map<string, V> {
  constructor(
    base: ReadonlyMap<string, V>,
    private readonly fallback: (key: string) => V | undefined,
  ) {
    super(base);
  }

  override get(key: string): V | undefined {
    return super.get(key) ?? this.fallback(key);
  }

  override has(key: string): boolean {
    return super.has(key) || this.fallback(key) !== undefined;
  }
}

/** The interval sources, plus the upstream services' (POST /calculator/intervals at their upstream). */
export const withUpstreamIntervals = (base: ReadonlyMap<string, IntervalSource>, upstream: { intervalSource(key: string): IntervalSource | undefined }): ReadonlyMap<string, IntervalSource> =>
  new Fallback(base, (key) => upstream.intervalSource(key));

/** The pricing sources, plus the upstream services' (POST /calculator at their upstream). */
export const withUpstreamPricing = (base: ReadonlyMap<string, PricingProvider>, upstream: { pricing(key: string): PricingProvider | undefined }): ReadonlyMap<string, PricingProvider> =>
  new Fallback(base, (key) => upstream.pricing(key));

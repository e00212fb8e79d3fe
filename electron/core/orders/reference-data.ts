import type { Point, ProviderService, Tariff } from '../../../shared/schemas/lists';
import type { ReferenceStore } from '../store/reference/reference-store';

/**
 * What the order rules and the sandbox services need of the reference lists. Each lookup answers
 * `undefined` when there is no reference data for the delivery service at all (an adapter under test,
 * say): the rule is then left to the service; and `null` when the data exists and the record does not.
 */
export interface ReferenceData {
  tariff(providerKey: string, tariffId: number): Promise<Tariff | null | undefined>;
  point(providerKey: string, pointId: number): Promise<Point | null | undefined>;
  /** The service's additional services (extraParams names), or undefined when none are listed. */
  services(providerKey: string): Promise<ProviderService[] | undefined>;
}

/** The same from the reference store, with the lookups the spreadsheet import and the sandbox services add. */
export interface StoredReferenceData extends ReferenceData {
  /** The service's tariffs, or undefined when it has none listed. */
  tariffs(providerKey: string): Promise<Tariff[] | undefined>;
  /** Whether the service has an open pickup point in the city (or a settlement of that name in a city). */
  hasPointIn(providerKey: string, city: string): Promise<boolean>;
}

/** The reference lists the reference store keeps (points, tariffs, services: see electron/core/lists). */
export function createReferenceData(store: ReferenceStore): StoredReferenceData {
  return {
    async tariff(providerKey, tariffId) {
      const found = await store.findTariff(providerKey, tariffId);
      if (found) return found;
      return (await store.hasTariffs(providerKey)) ? null : undefined;
    },
    async point(providerKey, pointId) {
      const found = await store.findPoint(providerKey, pointId);
      if (found) return found;
      return (await store.hasPoints(providerKey)) ? null : undefined;
    },
    async services(providerKey) {
      const list = await store.servicesOf(providerKey);
      return list.length ? list : undefined;
    },
    async tariffs(providerKey) {
      const list = await store.tariffs(providerKey);
      return list.length ? list : undefined;
    },
    hasPointIn: (providerKey, city) => store.hasPointIn(providerKey, city),
  };
}

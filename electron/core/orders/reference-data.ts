import type { Point, ProviderService, Tariff } from '../../../shared/schemas/lists';
import { findPoint, hasPoints } from '../lists/points-repository';
import { findTariff, hasTariffs, servicesOf } from '../lists/tariffs-repository';
import type { Db } from '../store/database';

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

/** The reference lists of the app's database (points, tariffs, services: see electron/core/lists). */
export function createReferenceData(db: Db): ReferenceData {
  return {
    async tariff(providerKey, tariffId) {
      const found = await findTariff(db, providerKey, tariffId);
      if (found) return found;
      return (await hasTariffs(db, providerKey)) ? null : undefined;
    },
    async point(providerKey, pointId) {
      const found = await findPoint(db, providerKey, pointId);
      if (found) return found;
      return (await hasPoints(db, providerKey)) ? null : undefined;
    },
    async services(providerKey) {
      const list = await servicesOf(db, providerKey);
      return list.length ? list : undefined;
    },
  };
}

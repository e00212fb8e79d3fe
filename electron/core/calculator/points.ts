import type { Point } from '../../../shared/schemas/lists';
import type { Parcel } from '../lists/point-checks';
import type { ProviderRegistry } from '../providers/registry';
import type { ReferenceStore } from '../store/reference/reference-store';

/** What the calculator asks of the pickup points reference (the lists keep it). */
export interface PointDirectory {
  /** A point of any service by id. */
  find(id: number): Promise<Point | undefined>;
  /** Ids of the service's open points in the city that hand parcels out and take this one, nearest first when `near` is given. */
  issuingIn(query: { providerKey: string; city: string; parcel: Parcel; near?: { lat: number; lng: number } }): Promise<number[]>;
}

/** Every point of a city: the interface lists them all with each tariff to a point. */
const allOfACity = 100_000;

/** The points the reference store keeps. */
export function createReferencePoints(reference: ReferenceStore, providers: ProviderRegistry): PointDirectory {
  return {
    async find(id) {
      for (const info of providers.list()) {
        const point = await reference.findPoint(info.key, id);
        if (point) return point;
      }
      return undefined;
    },
    async issuingIn({ providerKey, city, parcel, near }) {
      const { rows } = await reference.searchPoints({ providerKey, city, operation: 'issue', parcel, near, limit: allOfACity, offset: 0 });
      return rows.map((p) => p.id);
    },
  };
}

import type { Point } from '../../../shared/schemas/lists';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import { validationError } from '../errors';
import { pointRefusals } from '../lists/point-checks';
import type { ReferenceStore } from '../store/reference/reference-store';

/**
 * The office where the shop usually brings a service's parcels (the order's pointInId for tariffs with
 * pickupType 2). One per company and service; the order form offers it for every new order.
 */
export function createUsualDropOff(reference: ReferenceStore, clock: Clock) {
  return {
    /** The remembered office, or null when none was chosen or it has since closed or stopped taking parcels. */
    async get(ctx: CallContext, providerKey: string): Promise<Point | null> {
      const pointId = await reference.usualDropOff(ctx.companyId, providerKey);
      if (pointId === null) return null;
      const point = await reference.findPoint(providerKey, pointId);
      return point && pointRefusals(point, {}, 'in').length === 0 ? point : null;
    },

    /** Remembers an office; one that is not the service's, is closed or takes no parcels is refused. */
    async remember(ctx: CallContext, providerKey: string, pointId: number): Promise<Point> {
      const point = await reference.findPoint(providerKey, pointId);
      if (!point) throw validationError([{ field: 'pointId', message: `${pointId} is not a point of ${providerKey}` }]);
      const refusal = pointRefusals(point, {}, 'in')[0];
      if (refusal) throw validationError([{ field: 'pointId', message: refusal.message }]);
      await reference.rememberDropOff(ctx.companyId, providerKey, pointId, clock.now());
      return point;
    },
  };
}

import type { Point } from '../../../shared/schemas/lists';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import { validationError } from '../errors';
import { findPoint } from '../lists/points-repository';
import { pointRefusals } from '../lists/point-checks';
import type { Db } from '../store/database';

/**
 * The office where the shop usually brings a service's parcels (the order's pointInId for tariffs with
 * pickupType 2). One per company and service; the order form offers it for every new order.
 */
export function createUsualDropOff(db: Db, clock: Clock) {
  return {
    /** The remembered office, or null when none was chosen or it has since closed or stopped taking parcels. */
    async get(ctx: CallContext, providerKey: string): Promise<Point | null> {
      const row = await db
        .selectFrom('usual_drop_off_points')
        .select('point_id')
        .where('company_id', '=', ctx.companyId)
        .where('provider_key', '=', providerKey)
        .executeTakeFirst();
      if (!row) return null;
      const point = await findPoint(db, providerKey, row.point_id);
      return point && pointRefusals(point, {}, 'in').length === 0 ? point : null;
    },

    /** Remembers an office; one that is not the service's, is closed or takes no parcels is refused. */
    async remember(ctx: CallContext, providerKey: string, pointId: number): Promise<Point> {
      const point = await findPoint(db, providerKey, pointId);
      if (!point) throw validationError([{ field: 'pointId', message: `${pointId} is not a point of ${providerKey}` }]);
      const refusal = pointRefusals(point, {}, 'in')[0];
      if (refusal) throw validationError([{ field: 'pointId', message: refusal.message }]);
      await db
        .insertInto('usual_drop_off_points')
        .values({ company_id: ctx.companyId, provider_key: providerKey, point_id: pointId, updated_at: clock.now() })
        .onConflict((oc) => oc.columns(['company_id', 'provider_key']).doUpdateSet({ point_id: pointId, updated_at: clock.now() }))
        .execute();
      return point;
    },
  };
}

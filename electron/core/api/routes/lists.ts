import type { Point } from '../../../../shared/schemas/lists';
import type { App } from '../../app';
import type { ListRequest } from '../../lists/lists-service';
import type { ApiRequest, Route } from '../route';

/** The query parameters of a list request. */
const listRequest = (req: ApiRequest): ListRequest => ({
  limit: req.query.get('limit'),
  offset: req.query.get('offset'),
  filter: req.query.get('filter'),
  fields: req.query.get('fields'),
});

/**
 * XML element names cannot be digits, so in XML a point's worktime `{"1": "10:00/20:00"}` is sent
 * as a list: `<worktime><item><day>1</day><hours>10:00/20:00</hours></item>…</worktime>`.
 */
function xmlPoint(point: Partial<Point>) {
  if (!point.worktime) return point;
  return { ...point, worktime: Object.entries(point.worktime).map(([day, hours]) => ({ day: Number(day), hours })) };
}

/**
 * The reference lists of the delivery interface (`/v1/lists/*`, also without /v1). Paged lists answer
 * `{ rows, meta: { total, offset, limit } }`; services and the small numbered lists bare arrays.
 * All take `filter` and `fields`; the paged ones also `limit` (1..1000, default 100) and `offset`.
 */
export function listRoutes(app: App): Route[] {
  const { lists } = app.services;
  const get = (pattern: string, handler: Route['handler']): Route => ({ method: 'GET', pattern, handler });
  return [
    get('/lists/points', async (req) => {
      const page = await lists.points(listRequest(req));
      return req.format === 'xml' ? { ...page, rows: page.rows.map(xmlPoint) } : page;
    }),
    get('/lists/tariffs', (req) => lists.tariffs(listRequest(req))),
    get('/lists/providers', (req) => lists.providers(listRequest(req))),
    get('/lists/statuses', (req) => lists.statuses(listRequest(req))),
    get('/lists/services', (req) => lists.services(listRequest(req))),
    get('/lists/pickupTypes', (req) => lists.pickupTypes(listRequest(req))),
    get('/lists/deliveryTypes', (req) => lists.deliveryTypes(listRequest(req))),
    get('/lists/paymentMethods', (req) => lists.paymentMethods(listRequest(req))),
    get('/lists/pointTypes', (req) => lists.pointTypes(listRequest(req))),
  ];
}

import { z } from 'zod';
import { providerServiceSchema, typeRecordSchema, type Point } from '../../../../shared/schemas/lists';
import { listPagingSchema, pageLimits } from '../../lists/lists-service';
import {
  pointFilterFields, pointRecordFields, serviceFilterFields, serviceRecordFields, tariffFilterFields, tariffRecordFields,
} from '../../lists/list-fields';
import {
  providerFilterFields, providerRecordFields, statusFilterFields, statusRecordFields, typeFilterFields, typeRecordFields,
} from '../../lists/static-lists';
import { encodeBody } from '../codec';
import { fieldsRow, listFilterRows, listParamDocs, pagingRow, unauthorizedRow } from '../openapi/operations';
import { pointsPageSchema, providersPageSchema, statusesPageSchema, tariffsPageSchema } from '../openapi/schemas';
import { defineRoute, type ApiRequest, type Route, type RouteDoc } from '../route';
import type { App } from '../../app';

/** `filter` and `fields` of every list; the paged ones also `limit` (1..1000, default 100) and `offset`. */
const bareQuery = z.object({ filter: z.string().optional(), fields: z.string().optional() });
const pagedQuery = bareQuery.extend(listPagingSchema.shape);
type ListQuery = z.output<typeof pagedQuery>;

/**
 * XML element names cannot be digits, so in XML a point's worktime `{"1": "10:00/20:00"}` is sent
 * as a list: `<worktime><item><day>1</day><hours>10:00/20:00</hours></item>…</worktime>`.
 */
function xmlPoint(point: Partial<Point>) {
  if (!point.worktime) return point;
  return { ...point, worktime: Object.entries(point.worktime).map(([day, hours]) => ({ day: Number(day), hours })) };
}

type Lists = App['services']['lists'];

interface ListSpec {
  id: string;
  path: string;
  summary: string;
  summaryRu: string;
  description: string;
  answer: RouteDoc['answer'] & { schema: z.ZodType };
  filterFields: Record<string, unknown>;
  recordFields: readonly string[];
  paged: boolean;
  read: (lists: Lists, query: ListQuery & { providerKey?: string }, req: ApiRequest<Record<string, string>, ListQuery>) => Promise<unknown>;
  /** Beside filter and fields (and paging). */
  query?: z.ZodType<ListQuery>;
}

/** `?providerKey=x` as one more filter condition (the value quoted: it is the caller's text). */
const withProviderKey = (filter: string | undefined, providerKey: string | undefined) =>
  [filter, providerKey && `providerKey="${providerKey.replace(/["\\]/g, '\\$&')}"`].filter((part) => part && part.trim()).join(';') || undefined;

/** A reference list: GET, JSON or XML, `filter` and `fields` (and paging when `paged`). */
const list = ({ id, path, summary, summaryRu, description, answer: { schema, ...answer }, filterFields, recordFields, paged, read, query }: ListSpec): Route =>
  defineRoute<Record<string, string>, ListQuery>({
    method: 'GET',
    pattern: path,
    query: query ?? ((paged ? pagedQuery : bareQuery) as z.ZodType<ListQuery>),
    answer: schema,
    doc: {
      id,
      tag: 'Lists',
      summary,
      summaryRu,
      description,
      formats: ['json', 'xml'],
      params: { ...listParamDocs(filterFields, recordFields), providerKey: { description: 'Only this delivery service\'s records (the same as a `providerKey=` condition in `filter`).', example: 'sandbox-express' } },
      answer,
      errors: [unauthorizedRow, ...(paged ? [pagingRow(`1..${pageLimits.maxLimit}`, '≥ 0')] : []), ...listFilterRows, fieldsRow],
    },
    handler: (req, app) => read(app.services.lists, req.query, req),
  });

const typeList = z.array(typeRecordSchema);

/**
 * The reference lists of the delivery interface (`/v1/lists/*`, also without /v1). Paged lists answer
 * `{ rows, meta: { total, offset, limit } }`; services and the small numbered lists bare arrays.
 */
export const listRoutes: Route[] = [
  list({
    id: 'listPoints',
    path: '/lists/points',
    summary: 'Pickup points',
    summaryRu: 'Пункты выдачи и приёма',
    description: [
      'Pickup and collection points of the delivery services, by `id`. Paged: `{ rows, meta: { total, offset, limit } }`.',
      '- A `city` condition matches the point\'s `city` **or** its `community` (a settlement or district within the city area), without regard to case, and `ё` = `е`.',
      '- `limits.*` are filterable (`limits.maxWeight>5000`); `limits.maxCod` is compared in rubles like the record shows it.',
      '- `fittingRoom`, `cod`, `paymentCash`, `paymentCard` are 1/0, or null when not known (ours); `enabled` is 1/0. A null limit means no limit.',
      '- `worktime` maps ISO weekdays `"1"` (Monday) to `"7"` to `HH:MM/HH:MM`; a missing day is a day off; `"00:00/24:00"` is round the clock.',
      '- In XML `worktime` is a list: `<worktime><item><day>1</day><hours>10:00/20:00</hours></item>…</worktime>` (element names cannot be digits).',
    ].join('\n'),
    answer: { name: 'PointsPage', schema: pointsPageSchema, description: 'One page of points.' },
    filterFields: pointFilterFields,
    recordFields: pointRecordFields,
    paged: true,
    // Encoded once per page and kept until points change (lists-service.ts, encodedPoints).
    read: async (lists, query, req) => ({
      encoded: await lists.encodedPoints(query, req.format, (page) => {
        const { contentType, text } = encodeBody(req.format === 'xml' ? { ...page, rows: page.rows.map(xmlPoint) } : page, req.format);
        return { contentType, bytes: Buffer.from(text) };
      }),
    }),
  }),
  list({
    id: 'listTariffs',
    path: '/lists/tariffs',
    summary: 'Tariffs',
    summaryRu: 'Тарифы',
    description: [
      'Tariffs of the delivery services, by `id`. Paged.',
      '- `pickupType` / `deliveryType`: 1 door, 2 point (warehouse), null both.',
      '- `paymentCash` 0/1: the recipient may pay the cash-on-delivery amount in cash. `aliasName` is the tariff\'s code at its delivery service. Weights in grams.',
    ].join('\n'),
    answer: { name: 'TariffsPage', schema: tariffsPageSchema, description: 'One page of tariffs.' },
    filterFields: tariffFilterFields,
    recordFields: tariffRecordFields,
    paged: true,
    read: (lists, query) => lists.tariffs(query),
  }),
  list({
    id: 'listProviders',
    path: '/lists/providers',
    summary: 'Delivery services',
    summaryRu: 'Службы доставки',
    description: [
      'The delivery services this ShipDesk can use: the built-in sandbox services and the connected ones. Paged.',
      '- Beside `key`, `name`, `description` of the conventions each record carries `test` (a sandbox service that sends nothing anywhere) and `capabilities` (cancel, update, intervals none/fixed/dynamic, delivery and pickup types, cash on delivery) — ours.',
      '- `capabilities.operations` lists what ShipDesk does with the service; `capabilities.batches` is true for a service whose orders get their tracking number in a batch (Russian Post), and `capabilities.tariffPointTypes` names the point types of tariffs that go to some kinds of point only.',
    ].join('\n'),
    answer: { name: 'ProvidersPage', schema: providersPageSchema, description: 'One page of delivery services.' },
    filterFields: providerFilterFields,
    recordFields: providerRecordFields,
    paged: true,
    read: (lists, query) => lists.providers(query),
  }),
  list({
    id: 'listStatuses',
    path: '/lists/statuses',
    summary: 'Status keys',
    summaryRu: 'Статусы заказа',
    description: 'Every status key with its Russian name and description; `final` (ours) marks the states an order does not leave (delivered, returned, partialReturn, deliveryCanceled, lost). Paged.',
    answer: { name: 'StatusesPage', schema: statusesPageSchema, description: 'One page of status records.' },
    filterFields: statusFilterFields,
    recordFields: statusRecordFields,
    paged: true,
    read: (lists, query) => lists.statuses(query),
  }),
  list({
    id: 'listServices',
    path: '/lists/services',
    summary: 'Additional services',
    summaryRu: 'Дополнительные услуги',
    description: 'Additional services of each delivery service, ordered with `extraParams` on POST /orders; `valueType` says what value they take (bool, string, int, float). A bare array (wire conventions); `limit` and `offset` are not read. `providerKey=` (as the aggregator\'s SDK sends it) is the same as `filter=providerKey=…`, and both may be given.',
    answer: { name: 'ProviderServices', schema: z.array(providerServiceSchema), description: 'All matching additional services.' },
    filterFields: serviceFilterFields,
    recordFields: serviceRecordFields,
    paged: false,
    query: bareQuery.extend({ providerKey: z.string().optional() }),
    read: (lists, query) => lists.services({ ...query, filter: withProviderKey(query.filter, query.providerKey) }),
  }),
  list({
    id: 'listPickupTypes',
    path: '/lists/pickupTypes',
    summary: 'Pickup types',
    summaryRu: 'Способы передачи заказа в службу',
    description: 'The values of `order.pickupType`: 1 from the client\'s door, 2 the client brings the order to the service. A bare array.',
    answer: { name: 'PickupTypes', schema: typeList, description: 'The pickup types.' },
    filterFields: typeFilterFields,
    recordFields: typeRecordFields,
    paged: false,
    read: (lists, query) => lists.pickupTypes(query),
  }),
  list({
    id: 'listDeliveryTypes',
    path: '/lists/deliveryTypes',
    summary: 'Delivery types',
    summaryRu: 'Способы доставки',
    description: 'The values of `order.deliveryType`: 1 to the door, 2 to a pickup point. A bare array.',
    answer: { name: 'DeliveryTypes', schema: typeList, description: 'The delivery types.' },
    filterFields: typeFilterFields,
    recordFields: typeRecordFields,
    paged: false,
    read: (lists, query) => lists.deliveryTypes(query),
  }),
  list({
    id: 'listPaymentMethods',
    path: '/lists/paymentMethods',
    summary: 'Payment methods',
    summaryRu: 'Способы оплаты',
    description: 'How a recipient may pay the cash-on-delivery amount. A bare array.',
    answer: { name: 'PaymentMethods', schema: typeList, description: 'The payment methods.' },
    filterFields: typeFilterFields,
    recordFields: typeRecordFields,
    paged: false,
    read: (lists, query) => lists.paymentMethods(query),
  }),
  list({
    id: 'listPointTypes',
    path: '/lists/pointTypes',
    summary: 'Point types',
    summaryRu: 'Типы пунктов',
    description: 'The values of a point\'s `type`: 1 pickup point, 2 parcel locker, 3 post office, 4 terminal. A bare array; this list is ours (the conventions name the values only).',
    answer: { name: 'PointTypes', schema: typeList, description: 'The point types.' },
    filterFields: typeFilterFields,
    recordFields: typeRecordFields,
    paged: false,
    read: (lists, query) => lists.pointTypes(query),
  }),
  list({
    id: 'listOperationTypes',
    path: '/lists/operationTypes',
    summary: 'Point operation types',
    summaryRu: 'Типы операций пунктов',
    description: 'The values of a point\'s `availableOperation`: 1 it takes parcels in (pointInId), 2 it hands orders out (pointOutId), 3 both. A bare array.',
    answer: { name: 'OperationTypes', schema: typeList, description: 'The operation types.' },
    filterFields: typeFilterFields,
    recordFields: typeRecordFields,
    paged: false,
    read: (lists, query) => lists.operationTypes(query),
  }),
];

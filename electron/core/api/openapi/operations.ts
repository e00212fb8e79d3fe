import { z } from 'zod';
import { ErrorCode, type ErrorCodeValue } from '../../../../shared/errors';
import {
  calculatorRequestSchema, calculatorResultSchema, intervalsRequestSchema, intervalsResultSchema,
} from '../../../../shared/schemas/calculator';
import { providerServiceSchema, typeRecordSchema } from '../../../../shared/schemas/lists';
import { orderCreatedSchema, orderCreateSchema } from '../../../../shared/schemas/order';
import { orderCanceledSchema, orderDeletedSchema, orderDetailSchema, orderUpdatedSchema } from '../../../../shared/schemas/order-detail';
import {
  historyListPageSchema, historyPageSchema, orderStatusResultSchema, statusesRequestSchema, statusesResultSchema, statusHistoryListSchema,
  statusHistorySchema,
} from '../../../../shared/schemas/statuses';
import { uploadRequestSchema, uploadResponseSchema, uploadStateSchema } from '../../../../shared/schemas/upload';
import { filterLimits } from '../../lists/filter';
import { pageLimits } from '../../lists/lists-service';
import { pointFilterFields, pointRecordFields } from '../../lists/points-repository';
import {
  providerFilterFields, providerRecordFields, statusFilterFields, statusRecordFields, typeFilterFields, typeRecordFields,
} from '../../lists/static-lists';
import { serviceFilterFields, serviceRecordFields, tariffFilterFields, tariffRecordFields } from '../../lists/tariffs-repository';
import { historyFilterFields, intervalFilterFields } from '../../statuses/status-filter';
import {
  clientNumberParam, errorBodySchema, fieldsParam, filterParam, htmlPageSchema, listLimitParam, listOffsetParam, momentParam, openApiDocumentSchema,
  orderIdParam, pointsPageSchema, providersPageSchema, statusesPageSchema, tariffsPageSchema, uploadIdParam, uploadLimitParam, uploadOffsetParam,
} from './schemas';

/**
 * The local delivery interface, one entry per operation: what it does, what it takes and answers
 * (the zod schemas of shared/schemas, never copies), and how it fails. `GET /openapi.json` and the
 * `GET /docs` page are both generated from this list, and a test holds it equal to the routes.
 *
 * Descriptions are CommonMark (paragraphs, `- ` lists, `code`, **bold**): OpenAPI renders them and the
 * reference page understands the same subset. "(ours)" marks a decision where the interface document
 * and the wire conventions are silent.
 */

export type Tag = 'Lists' | 'Orders' | 'Statuses' | 'Calculator' | 'Upload' | 'Reference';

export interface ParamDoc {
  name: string;
  in: 'path' | 'query';
  /** The value as the server understands it (query values arrive as text). */
  schema: z.ZodType;
  required?: boolean;
  description: string;
  example?: string;
}

export interface BodyDoc {
  /** Component name in the document. */
  name: string;
  /** Parsed as input: numbers and booleans may be text, blanks are "not given". */
  schema: z.ZodType;
  description: string;
  example?: unknown;
}

export interface ResponseDoc {
  name: string;
  schema: z.ZodType;
  description: string;
  example?: unknown;
}

export interface ErrorRow {
  status: number;
  code: ErrorCodeValue;
  when: string;
}

export interface Operation {
  /** operationId, also the anchor on the reference page. */
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** OpenAPI form, without /v1: `/orders/{orderId}`. */
  path: string;
  tag: Tag;
  summary: string;
  summaryRu: string;
  description: string;
  /** Served without a token. */
  public?: boolean;
  /** Media types of the answer. */
  formats: ('json' | 'xml' | 'html')[];
  params?: ParamDoc[];
  body?: BodyDoc;
  /** HTTP 200. */
  response: ResponseDoc;
  /** Other shapes of the 200 answer (upload: sync or async). */
  alternatives?: ResponseDoc[];
  errors: ErrorRow[];
}

// ---- rows shared by many operations ------------------------------------------------------------

const unauthorizedRow: ErrorRow = { status: 401, code: ErrorCode.unauthorized, when: 'The Authorization header is missing or carries no known token.' };
const bodyRows: ErrorRow[] = [
  { status: 400, code: ErrorCode.general, when: 'The body is not well-formed JSON or XML (description says where).' },
  { status: 400, code: ErrorCode.notUtf8, when: 'The body is not UTF-8, or Content-Type names another charset.' },
  { status: 413, code: ErrorCode.general, when: 'The body is larger than the operation accepts (1 MiB unless said otherwise).' },
];
const validationRow = (when: string): ErrorRow => ({ status: 400, code: ErrorCode.validation, when });
const calculatorRow = (when: string): ErrorRow => ({ status: 400, code: ErrorCode.calculatorValidation, when });
const orderNotFoundRow: ErrorRow = {
  status: 404,
  code: ErrorCode.orderNotFound,
  when: 'No such order of the calling company: unknown, deleted, another company\'s, or an id that is not a positive whole number.',
};

const names = (fields: Record<string, unknown> | readonly string[]) =>
  (Array.isArray(fields) ? fields : Object.keys(fields)).map((f) => `\`${f}\``).join(', ');

const listFilterRows: ErrorRow[] = [
  {
    status: 400,
    code: ErrorCode.invalidFilter,
    when: 'The filter is malformed (the description gives the position of a syntax error): trailing `;`, an unknown operator such as `>=`, an array with an operator other than `=`, `%` on a number field, text where the field takes numbers, an unterminated quote, more than the limits.',
  },
  { status: 400, code: ErrorCode.fieldNotFilterable, when: 'The filter names a field the list cannot be filtered by; description lists the filterable fields.' },
];
const fieldsRow: ErrorRow = {
  status: 400,
  code: ErrorCode.unknownField,
  when: '`fields` names a field the records do not have (one `errors[]` entry per unknown name).',
};
const pagingRow = (limit: string, offset: string): ErrorRow =>
  validationRow(`\`limit\` or \`offset\` is not a whole number within bounds (limit ${limit}, offset ${offset}); errors[] names the parameter.`);

// ---- parameters --------------------------------------------------------------------------------

const filterDoc = (fields: Record<string, unknown>, extra = '') =>
  `Conditions \`field op value\` joined by \`;\` (see "Lists: paging, filter, fields"). Filterable: ${names(fields)}.${extra}`;

const listParams = (filterFields: Record<string, unknown>, recordFields: readonly string[], paged: boolean, filterExtra = ''): ParamDoc[] => [
  ...(paged
    ? [
        {
          name: 'limit',
          in: 'query' as const,
          schema: listLimitParam,
          description: `Page size, 1 to ${pageLimits.maxLimit}; ${pageLimits.defaultLimit} when absent or empty.`,
        },
        { name: 'offset', in: 'query' as const, schema: listOffsetParam, description: 'Rows to skip, 0 or more; 0 when absent or empty.' },
      ]
    : []),
  { name: 'filter', in: 'query', schema: filterParam, description: filterDoc(filterFields, filterExtra), example: 'providerKey=sandbox-express;city=Москва' },
  {
    name: 'fields',
    in: 'query',
    schema: fieldsParam,
    description: `Comma-separated top-level fields to return, in record order: ${names(recordFields)}. Empty: all.`,
    example: 'id,providerKey,name',
  },
];

const orderIdPath: ParamDoc = {
  name: 'orderId',
  in: 'path',
  schema: orderIdParam,
  required: true,
  description: 'The service-side order id, as POST /orders returned it (a positive whole number written as text).',
  example: '42',
};

/** Unlike the reference lists, the status methods do not take an empty value as the default. */
const emptyIsError = 'An empty value (`limit=`) is 040002.';

const historyPaging = (bounds: 'order' | 'list'): ParamDoc[] =>
  bounds === 'order'
    ? [
        { name: 'offset', in: 'query', schema: historyPageSchema.shape.offset, description: `Rows to skip, 0 to 5000 (the interface's bound); 0 when absent. ${emptyIsError}` },
        { name: 'limit', in: 'query', schema: historyPageSchema.shape.limit, description: `Rows to return, 1 to 100 (the interface's bound); 100 when absent. ${emptyIsError}` },
      ]
    : [
        { name: 'offset', in: 'query', schema: historyListPageSchema.shape.offset, description: `Orders to skip, 0 or more; 0 when absent. ${emptyIsError}` },
        { name: 'limit', in: 'query', schema: historyListPageSchema.shape.limit, description: `Orders to return, 1 to 1000 (wire conventions); 100 when absent. ${emptyIsError}` },
      ];

const clientNumberQuery: ParamDoc = {
  name: 'clientNumber',
  in: 'query',
  schema: clientNumberParam,
  required: true,
  description: 'The client\'s order number (`order.clientNumber`). The live order with that number, else the newest canceled one (ours).',
  example: 'SHOP-1001',
};

const momentDoc =
  'A calendar date `YYYY-MM-DD` (from that day\'s local midnight, inclusive) or an ISO 8601 timestamp (strictly after it, so a client can poll with the last `created` it saw). Timestamps may carry `Z`, `+03:00`, `+0300` or no offset (local time); an unencoded `+` that arrives as a space is read as `+`.';

// ---- examples ----------------------------------------------------------------------------------

const createExample = {
  order: { clientNumber: 'SHOP-1001', providerKey: 'sandbox-express', deliveryType: 1, pickupType: 1, tariffId: 103, weight: 1200, length: 30, width: 20, height: 10 },
  cost: { assessedCost: 2500, codCost: 2990.5, deliveryCost: 490.5 },
  sender: { countryCode: 'RU', city: 'Москва', street: 'Тверская', house: '7', contactName: 'Иван Петров', phone: '+79161234567', companyName: 'ООО Ромашка' },
  recipient: { countryCode: 'RU', city: 'Санкт-Петербург', street: 'Невский проспект', house: '28', office: '5', contactName: 'Анна Смирнова', phone: '+79219876543' },
  places: [{ weight: 1200, items: [{ description: 'Футболка', articul: 'TS-01', quantity: 2, assessedCost: 1000, cost: 1000, weight: 300 }, { description: 'Кепка', quantity: 1, cost: 500, weight: 200 }] }],
};
const statusExample = {
  key: 'uploaded',
  name: 'Загружен в систему службы доставки',
  description: '',
  created: '2026-03-01T10:15:17+03:00',
  providerCode: 'REGISTERED',
  providerName: 'Registered',
  providerDescription: '',
  createdProvider: '2026-03-01T10:15:12+03:00',
  errorCode: '',
};
const orderInfoExample = {
  orderId: '42',
  providerKey: 'sandbox-express',
  providerNumber: 'SX-000042',
  returnProviderNumber: '',
  additionalProviderNumber: '',
  barcode: 'SX000042',
  clientNumber: 'SHOP-1001',
  trackingUrl: '',
};

export const errorExample = {
  code: '040002',
  message: 'Validation error',
  description: 'recipient.countryCode: is required',
  errors: [{ field: 'recipient.countryCode', message: 'is required' }],
};

// ---- the operations ----------------------------------------------------------------------------

const list = (
  id: string,
  path: string,
  summary: string,
  summaryRu: string,
  description: string,
  response: ResponseDoc,
  filterFields: Record<string, unknown>,
  recordFields: readonly string[],
  paged: boolean,
): Operation => ({
  id,
  method: 'GET',
  path,
  tag: 'Lists',
  summary,
  summaryRu,
  description,
  formats: ['json', 'xml'],
  params: listParams(filterFields, recordFields, paged),
  response,
  errors: [unauthorizedRow, ...(paged ? [pagingRow(`1..${pageLimits.maxLimit}`, '≥ 0')] : []), ...listFilterRows, fieldsRow],
});

const typeList = z.array(typeRecordSchema);

export const operations: Operation[] = [
  // ---- lists ----
  list(
    'listPoints',
    '/lists/points',
    'Pickup points',
    'Пункты выдачи и приёма',
    [
      'Pickup and collection points of the delivery services, by `id`. Paged: `{ rows, meta: { total, offset, limit } }`.',
      '- A `city` condition matches the point\'s `city` **or** its `community` (a settlement or district within the city area), without regard to case, and `ё` = `е`.',
      '- `limits.*` are filterable (`limits.maxWeight>5000`); `limits.maxCod` is compared in rubles like the record shows it.',
      '- `fittingRoom`, `cod`, `paymentCash`, `paymentCard` are 1/0, or null when not known (ours); `enabled` is 1/0. A null limit means no limit.',
      '- `worktime` maps ISO weekdays `"1"` (Monday) to `"7"` to `HH:MM/HH:MM`; a missing day is a day off; `"00:00/24:00"` is round the clock.',
      '- In XML `worktime` is a list: `<worktime><item><day>1</day><hours>10:00/20:00</hours></item>…</worktime>` (element names cannot be digits).',
    ].join('\n'),
    { name: 'PointsPage', schema: pointsPageSchema, description: 'One page of points.' },
    pointFilterFields,
    pointRecordFields,
    true,
  ),
  list(
    'listTariffs',
    '/lists/tariffs',
    'Tariffs',
    'Тарифы',
    [
      'Tariffs of the delivery services, by `id`. Paged.',
      '- `pickupType` / `deliveryType`: 1 door, 2 point (warehouse), null both.',
      '- `paymentCash` 0/1: the recipient may pay the cash-on-delivery amount in cash. `aliasName` is the tariff\'s code at its delivery service. Weights in grams.',
    ].join('\n'),
    { name: 'TariffsPage', schema: tariffsPageSchema, description: 'One page of tariffs.' },
    tariffFilterFields,
    tariffRecordFields,
    true,
  ),
  list(
    'listProviders',
    '/lists/providers',
    'Delivery services',
    'Службы доставки',
    [
      'The delivery services this ShipDesk can use: the built-in sandbox services and the connected ones. Paged.',
      '- Beside `key`, `name`, `description` of the conventions each record carries `test` (a sandbox service that sends nothing anywhere) and `capabilities` (cancel, update, intervals none/fixed/dynamic, delivery and pickup types, cash on delivery) — ours.',
    ].join('\n'),
    { name: 'ProvidersPage', schema: providersPageSchema, description: 'One page of delivery services.' },
    providerFilterFields,
    providerRecordFields,
    true,
  ),
  list(
    'listStatuses',
    '/lists/statuses',
    'Status keys',
    'Статусы заказа',
    'Every status key with its Russian name and description; `final` (ours) marks the states an order does not leave (delivered, returned, partialReturn, deliveryCanceled, lost). Paged.',
    { name: 'StatusesPage', schema: statusesPageSchema, description: 'One page of status records.' },
    statusFilterFields,
    statusRecordFields,
    true,
  ),
  list(
    'listServices',
    '/lists/services',
    'Additional services',
    'Дополнительные услуги',
    'Additional services of each delivery service, ordered with `extraParams.{extraParamName}` on POST /orders; `valueType` says what value they take (bool, string, int, float). A bare array (wire conventions); `limit` and `offset` are not read.',
    { name: 'ProviderServices', schema: z.array(providerServiceSchema), description: 'All matching additional services.' },
    serviceFilterFields,
    serviceRecordFields,
    false,
  ),
  list(
    'listPickupTypes',
    '/lists/pickupTypes',
    'Pickup types',
    'Способы передачи заказа в службу',
    'The values of `order.pickupType`: 1 from the client\'s door, 2 the client brings the order to the service. A bare array.',
    { name: 'PickupTypes', schema: typeList, description: 'The pickup types.' },
    typeFilterFields,
    typeRecordFields,
    false,
  ),
  list(
    'listDeliveryTypes',
    '/lists/deliveryTypes',
    'Delivery types',
    'Способы доставки',
    'The values of `order.deliveryType`: 1 to the door, 2 to a pickup point. A bare array.',
    { name: 'DeliveryTypes', schema: typeList, description: 'The delivery types.' },
    typeFilterFields,
    typeRecordFields,
    false,
  ),
  list(
    'listPaymentMethods',
    '/lists/paymentMethods',
    'Payment methods',
    'Способы оплаты',
    'How a recipient may pay the cash-on-delivery amount. A bare array.',
    { name: 'PaymentMethods', schema: typeList, description: 'The payment methods.' },
    typeFilterFields,
    typeRecordFields,
    false,
  ),
  list(
    'listPointTypes',
    '/lists/pointTypes',
    'Point types',
    'Типы пунктов',
    'The values of a point\'s `type`: 1 pickup point, 2 parcel locker, 3 post office, 4 terminal. A bare array; this list is ours (the conventions name the values only).',
    { name: 'PointTypes', schema: typeList, description: 'The point types.' },
    typeFilterFields,
    typeRecordFields,
    false,
  ),

  // ---- orders ----
  {
    id: 'createOrder',
    method: 'POST',
    path: '/orders',
    tag: 'Orders',
    summary: 'Create an order',
    summaryRu: 'Создать заказ',
    description: [
      'Stores the order and queues it for its delivery service in one transaction; the transfer happens after the answer (status `uploading`, then `uploaded` or `uploadingError`). HTTP 200.',
      'Checked synchronously (040002, every problem named in `errors[]`):',
      '- the schema: required fields, types, `order.pointOutId` when `deliveryType` = 2, `deliveryTimeEnd` after `deliveryTimeStart`;',
      '- the delivery service exists and offers the delivery type, the pickup type and cash on delivery; the tariff is the service\'s and matches the types; `pointOutId` / `pointInId` are the service\'s open points that hand out / take in;',
      '- `extraParams` names are the service\'s additional services (GET /lists/services) with values of their `valueType`; each value is stored as its type (`"1"` or `1` for a bool is `true`, `"30"` for an int is `30`), so an order sent in XML reads back like one sent in JSON. An empty `extraParams` (`{}`, `[]` as PHP writes it, null, `<extraParams/>`) is none;',
      '- `clientNumber` is unique among the company\'s live orders (a canceled or deleted order frees it);',
      '- (ours) the places weigh no more than `order.weight` plus 5 % (at least 50 g); the order may weigh more than its places (packaging); items that all have a weight weigh no more than their place (same margin); when `codCost` > 0 it covers Σ(item.cost × quantity) + `deliveryCost`.',
      'What only the delivery service decides (weight limits of a tariff, a point\'s limits, the cities it serves) ends later in `uploadingError` with errorCode 200.',
      'Numbers may be sent as decimal text (`"1200"`), as XML and PHP clients do, and text fields take a JSON number as its decimal text (`"clientNumber": 10045` is `"10045"`; phones, house, index, articul, barcode, placeNumber alike). JSON null in any field means "not given": an optional field is left out, a required one is 040002 "is required". Money is rubles with at most two decimals. `orderId` in the answer is a string (as the interface document types it).',
    ].join('\n\n'),
    formats: ['json', 'xml'],
    body: { name: 'OrderCreate', schema: orderCreateSchema, description: 'The order-creation payload.', example: createExample },
    response: {
      name: 'OrderCreated',
      schema: orderCreatedSchema,
      description: 'The order was stored and queued.',
      example: { orderId: '42', created: '2026-03-01T10:15:17+03:00' },
    },
    errors: [unauthorizedRow, validationRow('The payload breaks a rule above, or clientNumber is taken; errors[] names each field (`places.0.items.1.quantity`).'), ...bodyRows],
  },
  {
    id: 'getOrder',
    method: 'GET',
    path: '/orders/{orderId}',
    tag: 'Orders',
    summary: 'Read an order',
    summaryRu: 'Информация о заказе',
    description: [
      'The order\'s data as created or last changed, its numbers at the delivery service and its current status.',
      '- (ours) Numbers not given yet are empty strings, as in the status methods\' `orderInfo`; `order.statusKey` and `order.created` are added; `extraParams` is `{}` when none.',
      '- `quantityDelivered` appears on an item only once the service reported a partial delivery (absent = unknown; 0 = not bought).',
      '- A canceled order can still be read; a deleted one cannot.',
      '- In XML, `extraParams` whose names are not XML element names are written as `item{key,value}` (see "Formats").',
    ].join('\n'),
    formats: ['json', 'xml'],
    params: [orderIdPath],
    response: { name: 'OrderDetail', schema: orderDetailSchema, description: 'The order.' },
    errors: [unauthorizedRow, orderNotFoundRow],
  },
  {
    id: 'updateOrder',
    method: 'PUT',
    path: '/orders/{orderId}',
    tag: 'Orders',
    summary: 'Change an order',
    summaryRu: 'Изменить заказ',
    description: [
      'Replaces the order\'s data: the same payload and rules as POST /orders. Checked in this order: the order exists (404), the body\'s schema (040002), the order\'s state and service (040000 / 040306), the rules (040002).',
      '- Not sent yet: the queued transfer takes the new data. Refused by the service (`uploadingError`): the data is changed and a new transfer is queued automatically (status `uploading`).',
      '- Registered (`uploaded`): the change is sent to a service that supports update; otherwise 403 040306, whose description says what to do instead (cancel, or delete and create again).',
      '- Being transferred right now (a create attempt was made, no answer yet): a service that supports update gets the change after the transfer (the data is replaced now; if the transfer is refused, the new data is registered instead); another service: 400 040000, wait for `uploaded` or `uploadingError` (ours).',
      '- Handed over (`onPointIn` and later), finished or canceled: 400 040000 (ours).',
      '- A registered order cannot move to another `providerKey`.',
    ].join('\n'),
    formats: ['json', 'xml'],
    params: [orderIdPath],
    body: { name: 'OrderCreate', schema: orderCreateSchema, description: 'The complete new payload (as for POST /orders).' },
    response: { name: 'OrderUpdated', schema: orderUpdatedSchema, description: 'The change was stored (and queued for the service where needed).', example: { message: 'ok' } },
    errors: [
      unauthorizedRow,
      orderNotFoundRow,
      validationRow('The payload breaks a rule of POST /orders, clientNumber is taken by another live order, or a registered order would move to another service.'),
      { status: 400, code: ErrorCode.general, when: 'The order\'s state does not allow a change (being transferred to a service that cannot update, handed over, finished, canceled).' },
      { status: 403, code: ErrorCode.cannotCancel, when: 'The delivery service cannot change a registered order (description: what to do instead).' },
      ...bodyRows,
    ],
  },
  {
    id: 'deleteOrder',
    method: 'DELETE',
    path: '/orders/{orderId}',
    tag: 'Orders',
    summary: 'Delete an order',
    summaryRu: 'Удалить заказ',
    description: [
      'Removes the order from the lists and frees its clientNumber at once; where the service holds the order it is told after the answer.',
      '- Allowed: not sent yet, refused by the service (`uploadingError`), canceled (only clears it away), and registered orders of a service that supports neither update nor cancel (re-registering gives a new tracking number).',
      '- A registered order of a service that can update or cancel: 403 040306 (use those). Handed over or finished: 400 040000 (kept for the record).',
    ].join('\n'),
    formats: ['json', 'xml'],
    params: [orderIdPath],
    response: { name: 'OrderDeleted', schema: orderDeletedSchema, description: 'The order is gone.', example: { orderId: '42', deleted: '2026-03-01T10:15:17+03:00' } },
    errors: [
      unauthorizedRow,
      orderNotFoundRow,
      { status: 400, code: ErrorCode.general, when: 'The order was handed over or is finished.' },
      { status: 403, code: ErrorCode.cannotCancel, when: 'The service keeps registered orders: cancel or change it instead (the description says which).' },
    ],
  },
  {
    id: 'cancelOrder',
    method: 'GET',
    path: '/orders/{orderId}/cancel',
    tag: 'Orders',
    summary: 'Cancel an order',
    summaryRu: 'Отменить заказ',
    description: [
      'The order becomes `deliveryCanceled` at once and its clientNumber is free; the delivery service is told after the answer where it holds the order. `orderId` is a string.',
      '- Not sent yet or refused by the service: canceled here only (ours). Registered: where the service supports cancel; otherwise 403 040306.',
      '- Already canceled: 400 040081. Handed over (`onPointIn` and later) or finished: 400 040000 (403 040306 where the service never cancels).',
      '- (ours) If the service refuses the cancel later (the parcel was handed over meanwhile), the order gets status `problem` (errorCode 200) and comes back if its clientNumber was not used again.',
    ].join('\n'),
    formats: ['json', 'xml'],
    params: [orderIdPath],
    response: { name: 'OrderCanceled', schema: orderCanceledSchema, description: 'The order is canceled.', example: { orderId: '42', canceled: '2026-03-01T10:15:17+03:00' } },
    errors: [
      unauthorizedRow,
      orderNotFoundRow,
      { status: 400, code: ErrorCode.alreadyCanceled, when: 'The order is already canceled.' },
      { status: 400, code: ErrorCode.general, when: 'The order was handed over or is finished.' },
      { status: 403, code: ErrorCode.cannotCancel, when: 'The delivery service cannot cancel the order.' },
    ],
  },

  // ---- statuses ----
  {
    id: 'getOrderStatus',
    method: 'GET',
    path: '/orders/{orderId}/status',
    tag: 'Statuses',
    summary: 'Current status of an order',
    summaryRu: 'Текущий статус заказа',
    description:
      '`{ orderInfo, status }`. Every `orderInfo` and `status` field is always present and always a string; a value nobody has given yet is `""` (ours). A canceled order answers with `deliveryCanceled`; `errorCode` is 100 (our side), 200 (the delivery service) or 300 (the client\'s data).',
    formats: ['json', 'xml'],
    params: [orderIdPath],
    response: { name: 'OrderStatusResult', schema: orderStatusResultSchema, description: 'The order and its newest status.', example: { orderInfo: orderInfoExample, status: statusExample } },
    errors: [unauthorizedRow, orderNotFoundRow, { status: 404, code: ErrorCode.noStatuses, when: 'The order has no status yet.' }],
  },
  {
    id: 'getStatusByClientNumber',
    method: 'GET',
    path: '/orders/status',
    tag: 'Statuses',
    summary: 'Current status by clientNumber',
    summaryRu: 'Статус по номеру заказа клиента',
    description: 'The same answer as GET /orders/{orderId}/status, for the order with this clientNumber: the live one, else the newest canceled one (ours).',
    formats: ['json', 'xml'],
    params: [clientNumberQuery],
    response: { name: 'OrderStatusResult', schema: orderStatusResultSchema, description: 'The order and its newest status.' },
    errors: [
      unauthorizedRow,
      validationRow('`clientNumber` is missing or empty.'),
      { status: 404, code: ErrorCode.orderNotFound, when: 'No order of the company has this clientNumber.' },
      { status: 404, code: ErrorCode.noStatuses, when: 'The order has no status yet.' },
    ],
  },
  {
    id: 'getStatusHistoryByClientNumber',
    method: 'GET',
    path: '/orders/status/history',
    tag: 'Statuses',
    summary: 'Status history by clientNumber',
    summaryRu: 'История статусов по номеру заказа клиента',
    description: 'The same answer and bounds as GET /orders/{orderId}/statusHistory, for the order with this clientNumber (the live one, else the newest canceled one).',
    formats: ['json', 'xml'],
    params: [
      clientNumberQuery,
      ...historyPaging('order'),
      { name: 'filter', in: 'query', schema: filterParam, description: filterDoc({ ...historyFilterFields, created: null }, ' `created` takes one date or timestamp with `=`, `>` or `<`.') },
    ],
    response: { name: 'StatusHistory', schema: statusHistorySchema, description: 'The order and its statuses, newest first.' },
    errors: [
      unauthorizedRow,
      validationRow('`clientNumber` is missing, or `offset` / `limit` is out of bounds (errors[] names it).'),
      { status: 404, code: ErrorCode.orderNotFound, when: 'No order of the company has this clientNumber.' },
      ...listFilterRows,
    ],
  },
  {
    id: 'getStatuses',
    method: 'POST',
    path: '/orders/statuses',
    tag: 'Statuses',
    summary: 'Current statuses of several orders',
    summaryRu: 'Статусы нескольких заказов',
    description: [
      'Body `{ "orderIds": [...] }`, 1 to 100 ids (numbers or text; one value counts as a list of one; XML: `<orderIds><item>1</item>…</orderIds>`).',
      'Each id is answered once, in the order asked: found ones in `succeedOrders` as `{ orderInfo, status }`, the others in `failedOrders` with a message (unknown, another company\'s, no status yet). HTTP 200 even when every id failed.',
    ].join('\n\n'),
    formats: ['json', 'xml'],
    body: { name: 'StatusesRequest', schema: statusesRequestSchema, description: 'The order ids.', example: { orderIds: ['42', '43'] } },
    response: {
      name: 'StatusesResult',
      schema: statusesResultSchema,
      description: 'Statuses of the orders found; the others with the reason.',
      example: { succeedOrders: [{ orderInfo: orderInfoExample, status: statusExample }], failedOrders: [{ orderId: '43', message: 'Order 43 was not found' }] },
    },
    errors: [unauthorizedRow, validationRow('`orderIds` is missing, empty, not a list, longer than 100, or has an empty or too long id.'), ...bodyRows],
  },
  {
    id: 'getStatusesChangedSince',
    method: 'GET',
    path: '/orders/statuses/date/{date}',
    tag: 'Statuses',
    summary: 'Orders whose status changed since a date',
    summaryRu: 'Заказы, статус которых изменился после даты',
    description: `A bare array of \`{ orderInfo, status }\` for every order of the company whose current status was set after the date, oldest change first. ${momentDoc}`,
    formats: ['json', 'xml'],
    params: [{ name: 'date', in: 'path', schema: momentParam, required: true, description: momentDoc, example: '2026-03-01T10:15:17+03:00' }],
    response: { name: 'OrderStatusResults', schema: z.array(orderStatusResultSchema), description: 'The orders and their current statuses.' },
    errors: [unauthorizedRow, validationRow('`date` is not a real calendar date or an ISO 8601 timestamp (field `date`).')],
  },
  {
    id: 'getStatusHistorySince',
    method: 'GET',
    path: '/orders/statuses/history/date/{date}',
    tag: 'Statuses',
    summary: 'Every status change since a date',
    summaryRu: 'Все изменения статусов с даты',
    description: `\`{ rows: [{ orderInfo, statuses }], meta }\`: the status changes since the date, grouped by order (orders by id, statuses newest first). Paged **by order**: \`limit\` orders per page, \`meta.total\` counts orders. ${momentDoc}`,
    formats: ['json', 'xml'],
    params: [{ name: 'date', in: 'path', schema: momentParam, required: true, description: momentDoc, example: '2026-03-01' }, ...historyPaging('list')],
    response: { name: 'StatusHistoryList', schema: statusHistoryListSchema, description: 'Status changes grouped by order.' },
    errors: [unauthorizedRow, validationRow('`date` is not a date or timestamp, or `offset` / `limit` is out of bounds.')],
  },
  {
    id: 'getStatusHistoryInterval',
    method: 'GET',
    path: '/orders/statuses/interval',
    tag: 'Statuses',
    summary: 'Status changes in an interval',
    summaryRu: 'Изменения статусов за период',
    description: [
      'The status changes with `from` ≤ created ≤ `to`, grouped by order like GET /orders/statuses/history/date/{date}, paged by order.',
      '- `from` is required; `to` may be left out (up to now and beyond); a calendar date as `to` covers that whole day; `to` before `from` is 040002.',
      '- Dates and timestamps as in the other status methods.',
    ].join('\n'),
    formats: ['json', 'xml'],
    params: [
      { name: 'from', in: 'query', schema: momentParam, required: true, description: 'Start, inclusive: a date or timestamp.', example: '2026-03-01' },
      { name: 'to', in: 'query', schema: momentParam, description: 'End, inclusive (a date: the whole day).', example: '2026-03-31' },
      { name: 'filter', in: 'query', schema: filterParam, description: filterDoc({ ...intervalFilterFields, created: null }, ' `created` takes one date or timestamp with `=`, `>` or `<`.'), example: 'providerKey=sandbox-express;key=[delivered,returned]' },
      ...historyPaging('list'),
    ],
    response: { name: 'StatusHistoryList', schema: statusHistoryListSchema, description: 'Status changes grouped by order.' },
    errors: [unauthorizedRow, validationRow('`from` is missing or not a date, `to` is not a date or before `from`, or `offset` / `limit` is out of bounds.'), ...listFilterRows],
  },
  {
    id: 'getStatusHistory',
    method: 'GET',
    path: '/orders/{orderId}/statusHistory',
    tag: 'Statuses',
    summary: 'Status history of an order',
    summaryRu: 'История статусов заказа',
    description: [
      '`{ orderInfo, rows, meta: { total, offset, limit } }`, rows newest first (may be empty).',
      '- `orderIds` (at most 100) merges the histories of those orders with the path\'s order into one list; each row then carries its `orderId`, and `orderInfo` stays the path\'s order. Written repeated (`orderIds=1&orderIds=2`), PHP style (`orderIds[]=1`, `orderIds[0]=1`) or comma-separated (`orderIds=1,2`).',
      '- `filter` narrows the rows: by `key`, or by `created` with `=`, `>` or `<` and a date or timestamp.',
    ].join('\n'),
    formats: ['json', 'xml'],
    params: [
      orderIdPath,
      ...historyPaging('order'),
      { name: 'orderIds', in: 'query', schema: z.array(orderIdParam).max(100), description: 'More orders to merge in (at most 100).', example: '43,44' },
      { name: 'filter', in: 'query', schema: filterParam, description: filterDoc({ ...historyFilterFields, created: null }, ' `created` takes one date or timestamp with `=`, `>` or `<`.'), example: 'created>2026-03-01' },
    ],
    response: {
      name: 'StatusHistory',
      schema: statusHistorySchema,
      description: 'The order and its statuses, newest first.',
      example: { orderInfo: orderInfoExample, rows: [statusExample], meta: { total: 1, offset: 0, limit: 100 } },
    },
    errors: [
      unauthorizedRow,
      orderNotFoundRow,
      validationRow('`offset` / `limit` out of bounds, or more than 100 `orderIds` (errors[] names the parameter).'),
      { status: 404, code: ErrorCode.orderNotFound, when: 'An id in `orderIds` is not an order of the company (description names it).' },
      ...listFilterRows,
    ],
  },

  // ---- calculator ----
  {
    id: 'calculate',
    method: 'POST',
    path: '/calculator',
    tag: 'Calculator',
    summary: 'Cost and term of delivery',
    summaryRu: 'Расчёт стоимости и сроков',
    description: [
      'Prices every matching tariff of every delivery service, to the door (`deliveryToDoor`) and to a point (`deliveryToPoint`, with the ids of the service\'s open points in the destination city that can take the parcel), cheapest first.',
      '- `from` / `to`: a city, an address line or lat and lng; `countryCode` RU when absent. `places` (or the older single-parcel form with `weight`, `length`, `width`, `height` at the top) in grams and centimetres.',
      '- `providerKeys`, `tariffIds`, `pickupTypes`, `deliveryTypes` narrow the answer; `pointInId` / `pointOutId` keep only their service\'s tariffs through that point.',
      '- `deliveryCost` includes the insurance (`assessedCost`) and cash-on-delivery (`codCost`) fees, exact to the kopeck (`feesIncluded`, `insuranceFee`, `cashServiceFee` show them, ours); `deliveryCostOriginal` equals it. A service without cash on delivery drops out when `codCost` > 0.',
      '- A single value where a list is expected counts as a list of one; an empty XML element is "not given".',
      'Validation errors of this call are **040003** (not 040002), with `errors[]` naming the fields.',
    ].join('\n'),
    formats: ['json', 'xml'],
    body: {
      name: 'CalculatorRequest',
      schema: calculatorRequestSchema,
      description: 'What to price.',
      example: { from: { city: 'Москва' }, to: { city: 'Казань' }, places: [{ weight: 1200, length: 30, width: 20, height: 10 }], codCost: 2990.5, assessedCost: 2500 },
    },
    response: { name: 'CalculatorResult', schema: calculatorResultSchema, description: 'The priced tariffs.' },
    errors: [
      unauthorizedRow,
      calculatorRow('The body breaks the schema, names an unknown delivery service, a pickupDate before today, or a point that does not exist, is closed or cannot do its part.'),
      ...bodyRows,
    ],
  },
  {
    id: 'calculateIntervals',
    method: 'POST',
    path: '/calculator/intervals',
    tag: 'Calculator',
    summary: 'Delivery intervals',
    summaryRu: 'Интервалы доставки',
    description: [
      'The door-delivery tariffs of the services that use fixed or dynamic intervals (services without intervals answer nothing: any interval may be given at creation).',
      '- Fixed intervals come with `date: null` (in XML an empty element) and hold on any delivery day; dynamic ones come with concrete dates, a week of slots from the earliest delivery day.',
      '- `pickupDate` (YYYY-MM-DD or a timestamp, by the date written in it): today when absent, never in the past; a pickup asked for today after 14:00 leaves tomorrow. `deliveryDate`: the dynamic service answers only that day; fixed ones ignore it; before the pickup date is 040003.',
      '- Every field is optional; `providerKeys`, `tariffIds`, `pickupTypes` narrow the answer. Validation errors are 040003.',
    ].join('\n'),
    formats: ['json', 'xml'],
    body: { name: 'IntervalsRequest', schema: intervalsRequestSchema, description: 'Where and when.', example: { to: { city: 'Москва' }, pickupDate: '2026-03-02' } },
    response: { name: 'IntervalsResult', schema: intervalsResultSchema, description: 'The intervals per service and tariff.' },
    errors: [unauthorizedRow, calculatorRow('The body breaks the schema, names an unknown delivery service, a pickupDate before today, or a deliveryDate before the pickup date.'), ...bodyRows],
  },

  // ---- upload ----
  {
    id: 'uploadOrders',
    method: 'POST',
    path: '/orders/upload',
    tag: 'Upload',
    summary: 'Create orders from a spreadsheet',
    summaryRu: 'Загрузка заказов из файла xlsx',
    description: [
      'Reads an xlsx workbook (`file.base64`, or `file.url` over http(s)) with `columnMap` (field → column letter) and `columnSettings`, and creates an order per clientNumber with the rules of POST /orders. The body may be up to 48 MiB; the file up to 30 MB.',
      '- The settings are checked first (040002, the file is not even fetched); the top-level `providerKey` must name a delivery service (GET /lists/providers). A row whose own `order.providerKey` (column or `defaultData`) names another service keeps its own: the top-level key is the default for rows that name none. A file that cannot be read (not a workbook, damaged, .xls, protected, merged cells in the data, no rows…) is 400 040000 "Bad file" and creates nothing; `errors[0].field` is `file` or `file.url`.',
      '- A readable file creates its valid orders; each failed order is a result item with `code` 040002, `message`, `description`, `moreInfo` and `errors[{ field, message }]`. A clientNumber that already exists is reported, never imported twice.',
      '- `mode: sync` (default) answers `{ resultItems, base64 }` once every order is written, waiting a bounded time (10 s) for the services\' numbers when the file has at most 500 orders (`providerNumber` null until then, and for larger files, whose numbers follow through GET /orders/{orderId}/status; `status` shows where each order stands, ours). `mode: async` answers at once with the upload\'s state (`uploadId`, status `queued`); GET /orders/upload/{uploadId} gives progress and results.',
      '- `errorsToFile`: the failed rows are marked in a copy of the workbook, returned as `base64` (null when nothing failed).',
      '- `columnSettings.dateFormat` / `timeFormat` use PHP `date()` tokens (`d.m.Y`, `H:i`); `nameFormat: true` takes a name from several columns (`"I,AA,AB"`); `itemsNewRow: false` reads item rows under their order row. `defaultData` fills fields without a column; `sumByOrderRows(<column>)` sums a column over the order\'s rows. Booleans may be true/false or 1/0; nested `columnMap` objects equal dotted keys.',
      '- `orderId` in result items is a number (as the interface document types it there).',
    ].join('\n'),
    formats: ['json', 'xml'],
    body: {
      name: 'UploadRequest',
      schema: uploadRequestSchema,
      description: 'The file and how to read it.',
      example: {
        providerKey: 'sandbox-express',
        mode: 'sync',
        errorsToFile: true,
        file: { base64: 'UEsDBBQAAAAIA…' },
        columnSettings: { timeFormat: 'H:i', dateFormat: 'd.m.Y', nameFormat: false, itemsNewRow: true, rowStart: 2 },
        columnMap: { 'order.clientNumber': 'A', 'order.weight': 'B', 'recipient.contactName': 'C' },
        defaultData: { 'order.pickupType': '1' },
      },
    },
    response: { name: 'UploadResponse', schema: uploadResponseSchema, description: 'mode sync: one result item per order (created or failed).' },
    alternatives: [{ name: 'UploadState', schema: uploadStateSchema, description: 'mode async: the upload\'s state, status queued.' }],
    errors: [
      unauthorizedRow,
      validationRow('The settings are wrong (unknown fields, bad column letters, a required field with neither a column nor defaultData, file.url not http(s), file.base64 not base64…).'),
      { status: 400, code: ErrorCode.general, when: 'The file cannot be read or downloaded ("Bad file", errors[0].field `file` or `file.url`).' },
      { status: 413, code: ErrorCode.general, when: 'The body is over 48 MiB, or the file over 30 MB.' },
      ...bodyRows.filter((r) => r.status !== 413),
    ],
  },
  {
    id: 'getUpload',
    method: 'GET',
    path: '/orders/upload/{uploadId}',
    tag: 'Upload',
    summary: 'State and results of an upload (ours)',
    summaryRu: 'Состояние загрузки',
    description: [
      'Ours: the progress and results of an upload, asynchronous ones in particular. `status`: queued, reading, creating, registering, done, failed or canceled; `done` of `total`, `created`, `failed`; `resultItems` so far (paged with `offset` / `limit`; all when absent); `base64` the errors file; `error` why the whole file failed (an error body), else null.',
      'Uploads are kept 30 days (their files 7); another company\'s upload is not found.',
    ].join('\n\n'),
    formats: ['json', 'xml'],
    params: [
      { name: 'uploadId', in: 'path', schema: uploadIdParam, required: true, description: 'The `uploadId` of an asynchronous upload.', example: '7' },
      { name: 'offset', in: 'query', schema: uploadOffsetParam, description: 'Result items to skip, 0 or more.' },
      { name: 'limit', in: 'query', schema: uploadLimitParam, description: 'Result items to return, 1 to 20000; all when absent.' },
    ],
    response: { name: 'UploadState', schema: uploadStateSchema, description: 'The upload\'s state.' },
    errors: [
      unauthorizedRow,
      { status: 404, code: ErrorCode.notFound, when: 'No such upload of the company (or the id is not a positive whole number).' },
      validationRow('`offset` / `limit` out of bounds.'),
    ],
  },

  // ---- this reference ----
  {
    id: 'getOpenApi',
    method: 'GET',
    path: '/openapi.json',
    tag: 'Reference',
    summary: 'This reference as OpenAPI 3.1',
    summaryRu: 'Описание интерфейса в формате OpenAPI',
    description: 'The OpenAPI 3.1 document of this interface, generated from the same schemas the server checks with. Public: no token. Always JSON.',
    public: true,
    formats: ['json'],
    response: { name: 'OpenApiDocument', schema: openApiDocumentSchema, description: 'The OpenAPI document.' },
    errors: [],
  },
  {
    id: 'getDocs',
    method: 'GET',
    path: '/docs',
    tag: 'Reference',
    summary: 'This reference as a page',
    summaryRu: 'Справочник по интерфейсу',
    description: 'A readable HTML page of this reference (no scripts, nothing loaded from elsewhere). Public: no token.',
    public: true,
    formats: ['html'],
    response: { name: 'HtmlPage', schema: htmlPageSchema, description: 'The HTML page.' },
    errors: [],
  },
];

/** Error codes of the interface with their HTTP statuses, for the general section. */
export const errorCodes: { code: ErrorCodeValue; status: string; meaning: string }[] = [
  { code: ErrorCode.general, status: '400 (403, 404, 405, 408, 413, 431)', meaning: 'General error: malformed body, URL or request, an order state that does not allow the change, a file that cannot be read; also a wrong Host header (403), a wrong method (405), a request that took too long (408), a body too large (413), a URL and headers over 16 KiB (431).' },
  { code: ErrorCode.validation, status: '400', meaning: 'Validation error; `errors[]` names each field (`places.0.items.1.quantity`). Also per failed row in upload results.' },
  { code: ErrorCode.calculatorValidation, status: '400', meaning: 'Validation error of POST /calculator and /calculator/intervals.' },
  { code: ErrorCode.notUtf8, status: '400', meaning: 'The body is not UTF-8.' },
  { code: ErrorCode.invalidFilter, status: '400', meaning: 'Malformed `filter` (the description gives the position).' },
  { code: ErrorCode.fieldNotFilterable, status: '400', meaning: '`filter` names a field the list cannot be filtered by (the description lists those it can).' },
  { code: ErrorCode.unknownField, status: '400', meaning: '`fields` names an unknown field (one `errors[]` entry per name).' },
  { code: ErrorCode.notFound, status: '404', meaning: 'No such path, or no such upload.' },
  { code: ErrorCode.noStatuses, status: '404', meaning: 'The order has no status yet.' },
  { code: ErrorCode.orderNotFound, status: '404', meaning: 'No such order of the calling company.' },
  { code: ErrorCode.alreadyCanceled, status: '400', meaning: 'The order is already canceled.' },
  { code: ErrorCode.unauthorized, status: '401', meaning: 'Missing or unknown token.' },
  { code: ErrorCode.cannotCancel, status: '403', meaning: 'The delivery service cannot do this (cancel, change or delete a registered order); the description says what to do instead.' },
  { code: ErrorCode.internal, status: '500', meaning: 'Something went wrong on our side; nothing was changed.' },
];

/**
 * The general part of the reference: what holds for every operation. Sections of CommonMark, in order;
 * OpenAPI gets them as `info.description`, the page as its first chapters.
 */
export const generalSections: { id: string; title: string; body: string }[] = [
  {
    id: 'addresses',
    title: 'Addresses and versions',
    body: [
      'ShipDesk serves the interface on `http://127.0.0.1:<port>` only (`npm run serve -- --port <port>`, 4318 by default). It answers only to `Host: 127.0.0.1:<port>` or `localhost:<port>` (403 otherwise) and sends no CORS headers.',
      '**Every path is served both with and without the `/v1` prefix** — `/v1/lists/points` and `/lists/points` are the same operation — and with or without a trailing slash. This reference lists each path once, without the prefix. Query parameters an operation does not know are ignored.',
    ].join('\n\n'),
  },
  {
    id: 'authentication',
    title: 'Authentication',
    body: [
      'Every operation except this reference (`/openapi.json`, `/docs`) needs `Authorization: <token>` — the raw token, no scheme; `Authorization: Bearer <token>` is accepted too. A missing or unknown token is 401 with code 040101.',
      'Each token belongs to one client company (`--token` in browser mode; the shop\'s own token otherwise). A company sees only its own orders: another company\'s order answers 404 040080, exactly like an unknown one.',
    ].join('\n\n'),
  },
  {
    id: 'formats',
    title: 'Formats: JSON and XML',
    body: [
      'Bodies are JSON or XML, UTF-8 only (040004 otherwise). The request format comes from `Content-Type` (`application/xml`, `text/xml` or `…+xml` is XML; anything else JSON). The answer is in the format `Accept` asks for first (XML or JSON), else in the request\'s format, else JSON. Error bodies follow the same rule.',
      'XML:',
      '- the request\'s root element is `request` (its name is not checked), the answer\'s `response`;',
      '- list entries are `item` elements; one `item` is a list of one; an empty list is an empty element;',
      '- booleans are written `1` / `0` and read as `1`, `0`, `true` or `false`; numbers may be text, as in JSON;',
      '- null is written as an empty element. In a request an empty element is empty text: the calculator, intervals and upload take it as "not given" for any optional field; POST and PUT /orders for optional text and optional numbers, and an empty `<extraParams/>` as none;',
      '- (ours) an object whose keys are not all XML element names (such as `extraParams` named `1x` or `my param`) is written as a list of `<item><key>…</key><value>…</value></item>`; characters XML 1.0 does not allow are written as U+FFFD. A point\'s `worktime` is sent as `item{day,hours}`.',
      'Answers are HTTP 200 with the body described; errors carry the error body below with the HTTP status of their code.',
    ].join('\n'),
  },
  {
    id: 'values',
    title: 'Values',
    body: [
      '- Weights in grams, sizes in centimetres, money in rubles with at most two decimals (kopecks; up to 100 000 000), kept exact.',
      '- Timestamps are ISO 8601 with the offset of the shop\'s computer and no milliseconds: `2026-03-01T10:15:17+03:00`.',
      '- Numbers in requests may be JSON numbers or decimal text (`-?digits[.digits]`); `1e3`, `NaN`, `Infinity` are not numbers. Text fields are trimmed; an empty optional text is "not given".',
      '- `orderId` is a string in the answers of POST /orders, cancel, DELETE and the status methods, and a number in upload results — as the interface document types each.',
    ].join('\n'),
  },
  {
    id: 'lists',
    title: 'Lists: paging, filter, fields',
    body: [
      'The paged lists (`/lists/points`, `/lists/tariffs`, `/lists/providers`, `/lists/statuses`) answer `{ "rows": [...], "meta": { "total", "offset", "limit" } }`; `meta` echoes the offset and limit used. The other lists answer bare arrays.',
      `- \`limit\` 1 to ${pageLimits.maxLimit}, default ${pageLimits.defaultLimit}; \`offset\` 0 or more, default 0; an empty value is the default; anything else is 400 040002 naming the parameter.`,
      '- `fields=id,providerKey,name`: only those top-level fields, in record order; blank parts are skipped; an unknown name is 040012.',
      `- \`filter\`: conditions \`field op value\` joined by \`;\` (no trailing \`;\`); all must hold. Operators \`=\`, \`>\`, \`<\`, \`%\` (substring). Whitespace around fields, operators and values is ignored. Values may be quoted with \`'\` or \`"\` (backslash escapes the next character); only an unquoted \`-?digits[.digits]\` is a number. Arrays \`[a,b,c]\` only with \`=\` and match any. Text compares without regard to case, with \`ё\` = \`е\`. An empty filter has no conditions. At most ${filterLimits.length.toLocaleString('en')} characters, ${filterLimits.conditions} conditions, ${filterLimits.arrayItems.toLocaleString('en')} values in an array.`,
      '- Examples: `city=Москва;providerKey=sandbox-express;availableOperation=[2,3]`, `id=[1,2,3]`, `name%экспресс`, `limits.maxWeight>5000`.',
      '- Errors (HTTP 400): 040010 malformed (position given), 040011 field not filterable (the filterable ones listed), 040012 unknown name in `fields`.',
    ].join('\n'),
  },
  {
    id: 'errors',
    title: 'Errors',
    body: [
      'Every error answers the error body `{ code, message, description?, moreInfo?, errors?: [{ field, message }] }`: `code` is six digits, `message` the kind of error, `description` what exactly, `errors` one entry per field (dotted paths like `places.0.items.1.quantity`; a missing field reads "is required"). Bad input changes nothing.',
      'Besides the rows of each operation, any call may get: 404 040016 (no such path), 405 040000 (wrong method, with `Allow`; HEAD and OPTIONS too — HEAD is not served as GET, since GET /orders/{orderId}/cancel changes the order; probe with GET /openapi.json), 400 040000 (malformed URL or request), 403 040000 (wrong Host header), 431 040000 (URL and headers over 16 KiB; these answers are always JSON), 500 050001 (our fault; nothing was changed).',
    ].join('\n\n'),
  },
];

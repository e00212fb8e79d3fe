import { z } from 'zod';
import { extraParamList, extraParamListSchema, orderCreatedSchema, orderCreateSchema } from '../../../../shared/schemas/order';
import { orderCanceledSchema, orderDeletedSchema, orderDetailSchema, orderUpdatedSchema } from '../../../../shared/schemas/order-detail';
import { ErrorCode } from '../../../../shared/errors';
import { quickOrderCreate } from '../../orders/quick-order-check';
import { createSync, syncWaitMs } from '../../orders/create-sync';
import { parseInput } from '../../validation';
import { bodyRows, createExample, orderIdDoc, orderNotFoundRow, unauthorizedRow, validationRow } from '../openapi/operations';
import { defineRoute, type Route } from '../route';

/** GET /orders/{orderId} on the wire: extraParams as `[{ key, value }]`, the form the aggregator's clients read. */
const orderAnswerSchema = orderDetailSchema.extend({ extraParams: extraParamListSchema });
const orderSyncedSchema = z.object({ orderId: z.string(), providerNumber: z.string(), additionalProviderNumber: z.string(), created: z.string() });
const orderValidSchema = z.object({ valid: z.literal(true) });

/**
 * How the order routes parse: an order body of the common shape through the quick check, which gives the schema's very
 * output or steps aside (orders/quick-order-check.ts, held to the schema by its test); everything else through its schema.
 * Measured (bench create, CPU profile of the server): zod's parse of the bench's order was ≈ 13-16 % of a POST /orders.
 */
const parseOrderInput: Route['parse'] = (schema, raw) =>
  parseInput(schema, raw, (schema as z.ZodType) === orderCreateSchema ? (quickOrderCreate as (raw: unknown) => z.output<typeof schema> | undefined) : undefined);

/** Any text: an id that is not a positive whole number is an unknown order (404), not a validation error. */
export const orderIdParams = z.object({ orderId: z.string() });
/** The `:orderId` of a path: parsed as any text (an unknown one is 404 040080); only digits name an order for 405. */
export const byOrderId = { params: orderIdParams, ids: { orderId: /^\s*\d+\s*$/ } };

/**
 * The order operations of the delivery interface (with and without /v1). `:orderId` routes are listed
 * after the status routes (routes/index.ts), so `/orders/status` never reads as an order id.
 */
export const orderRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    pattern: '/orders',
    body: orderCreateSchema,
    parse: parseOrderInput,
    answer: orderCreatedSchema,
    doc: {
      id: 'createOrder',
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
      body: { name: 'OrderCreate', description: 'The order-creation payload.', example: createExample },
      answer: {
        name: 'OrderCreated',
        description: 'The order was stored and queued.',
        example: { orderId: '42', created: '2026-03-01T10:15:17+03:00' },
      },
      errors: [unauthorizedRow, validationRow('The payload breaks a rule above, or clientNumber is taken; errors[] names each field (`places.0.items.1.quantity`).'), ...bodyRows],
    },
    handler: (req, app) => app.services.orders.create(req.ctx, req.body),
  }),
  defineRoute({
    method: 'GET',
    pattern: '/orders/:orderId',
    ...byOrderId,
    answer: orderAnswerSchema,
    doc: {
      id: 'getOrder',
      tag: 'Orders',
      summary: 'Read an order',
      summaryRu: 'Информация о заказе',
      description: [
        'The order\'s data as created or last changed, its numbers at the delivery service and its current status.',
        '- (ours) Numbers not given yet are empty strings, as in the status methods\' `orderInfo`; `order.statusKey` and `order.created` are added.',
        '- `extraParams` is the list `[{ key, value }]` the aggregator\'s clients read (`[]` when none), whichever form the order was sent in; values are stored as their service\'s `valueType`.',
        '- Fields of the aggregator\'s clients that ShipDesk does not act on (`order.description`, `pickupDate`, `pickupTimeStart/End`, `paymentMethod`, `cost.deliveryCostVat`, `isDeliveryPayedByRecipient`, `item.markCode`, `item.costVat`, `sender/recipient.comment`, `cityGuid`, `lat`, `lng`…) are returned as sent; `postIndex` and `index` both carry the postal code.',
        '- `quantityDelivered` appears on an item only once the service reported a partial delivery (absent = unknown; 0 = not bought).',
        '- A canceled order can still be read; a deleted one cannot.',
        ].join('\n'),
      params: orderIdDoc,
      formats: ['json', 'xml'],
      answer: { name: 'OrderDetail', description: 'The order.' },
      errors: [unauthorizedRow, orderNotFoundRow],
    },
    handler: async (req, app) => {
      const detail = await app.services.orders.get(req.ctx, req.params.orderId);
      return { ...detail, extraParams: extraParamList(detail.extraParams) };
    },
  }),
  defineRoute({
    method: 'PUT',
    pattern: '/orders/:orderId',
    ...byOrderId,
    body: orderCreateSchema,
    parse: parseOrderInput,
    answer: orderUpdatedSchema.extend({ orderId: z.string() }),
    // The order's existence and state speak before its data: an unknown order is 404 whatever the body.
    before: async (req, app) => {
      await app.services.orders.get(req.ctx, req.params.orderId);
    },
    doc: {
      id: 'updateOrder',
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
      params: orderIdDoc,
      formats: ['json', 'xml'],
      body: { name: 'OrderCreate', description: 'The complete new payload (as for POST /orders).' },
      answer: { name: 'OrderUpdated', description: 'The change was stored (and queued for the service where needed); `orderId` is the order changed.', example: { message: 'ok', orderId: '42' } },
      errors: [
        unauthorizedRow,
        orderNotFoundRow,
        validationRow('The payload breaks a rule of POST /orders, clientNumber is taken by another live order, or a registered order would move to another service.'),
        { status: 400, code: ErrorCode.general, when: 'The order\'s state does not allow a change (being transferred to a service that cannot update, handed over, finished, canceled).' },
        { status: 403, code: ErrorCode.cannotCancel, when: 'The delivery service cannot change a registered order (description: what to do instead).' },
        ...bodyRows,
      ],
    },
    // The aggregator's clients read `orderId` from the answer.
    handler: async (req, app) => ({ ...(await app.services.orders.update(req.ctx, req.params.orderId, req.body)), orderId: req.params.orderId.trim() }),
  }),
  defineRoute({
    method: 'DELETE',
    pattern: '/orders/:orderId',
    ...byOrderId,
    answer: orderDeletedSchema,
    doc: {
      id: 'deleteOrder',
      tag: 'Orders',
      summary: 'Delete an order',
      summaryRu: 'Удалить заказ',
      description: [
        'Removes the order from the lists and frees its clientNumber at once; where the service holds the order it is told after the answer.',
        '- Allowed: not sent yet, refused by the service (`uploadingError`), canceled (only clears it away), and registered orders of a service that supports neither update nor cancel (re-registering gives a new tracking number).',
        '- A registered order of a service that can update or cancel: 403 040306 (use those). Handed over or finished: 400 040000 (kept for the record).',
      ].join('\n'),
      params: orderIdDoc,
      formats: ['json', 'xml'],
      answer: { name: 'OrderDeleted', description: 'The order is gone.', example: { orderId: '42', deleted: '2026-03-01T10:15:17+03:00' } },
      errors: [
        unauthorizedRow,
        orderNotFoundRow,
        { status: 400, code: ErrorCode.general, when: 'The order was handed over or is finished.' },
        { status: 403, code: ErrorCode.cannotCancel, when: 'The service keeps registered orders: cancel or change it instead (the description says which).' },
      ],
    },
    handler: (req, app) => app.services.orders.remove(req.ctx, req.params.orderId),
  }),
  defineRoute({
    method: 'GET',
    pattern: '/orders/:orderId/cancel',
    ...byOrderId,
    answer: orderCanceledSchema,
    doc: {
      id: 'cancelOrder',
      tag: 'Orders',
      summary: 'Cancel an order',
      summaryRu: 'Отменить заказ',
      description: [
        'The order becomes `deliveryCanceled` at once and its clientNumber is free; the delivery service is told after the answer where it holds the order. `orderId` is a string.',
        '- Not sent yet or refused by the service: canceled here only (ours). Registered: where the service supports cancel; otherwise 403 040306.',
        '- Already canceled: 400 040081. Handed over (`onPointIn` and later) or finished: 400 040000 (403 040306 where the service never cancels).',
        '- (ours) If the service refuses the cancel later (the parcel was handed over meanwhile), the order gets status `problem` (errorCode 200) and comes back if its clientNumber was not used again.',
      ].join('\n'),
      params: orderIdDoc,
      formats: ['json', 'xml'],
      answer: { name: 'OrderCanceled', description: 'The order is canceled.', example: { orderId: '42', canceled: '2026-03-01T10:15:17+03:00' } },
      errors: [
        unauthorizedRow,
        orderNotFoundRow,
        { status: 400, code: ErrorCode.alreadyCanceled, when: 'The order is already canceled.' },
        { status: 400, code: ErrorCode.general, when: 'The order was handed over or is finished.' },
        { status: 403, code: ErrorCode.cannotCancel, when: 'The delivery service cannot cancel the order.' },
      ],
    },
    handler: (req, app) => app.services.orders.cancel(req.ctx, req.params.orderId),
  }),
  defineRoute({
    method: 'POST',
    pattern: '/orders/sync',
    body: orderCreateSchema,
    parse: parseOrderInput,
    answer: orderSyncedSchema,
    doc: {
      id: 'createOrderSync',
      tag: 'Orders',
      summary: 'Create an order and wait for the delivery service',
      summaryRu: 'Создать заказ и дождаться ответа службы',
      description: [
        'The payload and rules of POST /orders; then the order is sent to its delivery service at once and the answer waits for it: `{ orderId, providerNumber, additionalProviderNumber, created }` once the service registered the order.',
        `- The service refused it: 400 040000 with the service's reason (\`description\`, \`errors[]\`); the order is kept in \`uploadingError\` — correct it with PUT, then POST /orders/{orderId}/resend, or DELETE it.`,
        `- No answer within ${syncWaitMs / 1000} s: 504 040000; the order is kept and still being sent (GET /orders/status?clientNumber= finds it).`,
        '- A taken clientNumber is 040002 like POST /orders: look the order up by clientNumber.',
      ].join('\n'),
      formats: ['json', 'xml'],
      body: { name: 'OrderCreate', description: 'The order-creation payload (as for POST /orders).' },
      answer: {
        name: 'OrderSynced',
        description: 'The order is registered with its delivery service.',
        example: { orderId: '42', providerNumber: 'SX-000042', additionalProviderNumber: '', created: '2026-03-01T10:15:17+03:00' },
      },
      errors: [
        unauthorizedRow,
        validationRow('The payload breaks a rule of POST /orders, or clientNumber is taken.'),
        { status: 400, code: ErrorCode.general, when: 'The delivery service refused the order (the order is kept, status uploadingError).' },
        { status: 504, code: ErrorCode.general, when: 'The delivery service did not answer in time (the order is kept and still being sent).' },
        ...bodyRows,
      ],
    },
    handler: (req, app) =>
      createSync({ orders: app.services.orders, status: app.services.statuses.current, drain: () => app.outbox.drain() }, req.ctx, req.body),
  }),
  defineRoute({
    method: 'POST',
    pattern: '/orders/validate',
    body: orderCreateSchema,
    parse: parseOrderInput,
    answer: orderValidSchema,
    doc: {
      id: 'validateOrder',
      tag: 'Orders',
      summary: 'Check an order without creating it',
      summaryRu: 'Проверить заказ',
      description: 'Every rule of POST /orders, the unique clientNumber included; nothing is stored or sent. `{ valid: true }`, or the error body with `errors[{ field, message }]`.',
      formats: ['json', 'xml'],
      body: { name: 'OrderCreate', description: 'The order-creation payload (as for POST /orders).' },
      answer: { name: 'OrderValid', description: 'The order would be accepted.', example: { valid: true } },
      errors: [unauthorizedRow, validationRow('The payload breaks a rule of POST /orders, or clientNumber is taken.'), ...bodyRows],
    },
    handler: (req, app) => app.services.orders.validate(req.ctx, req.body),
  }),
  defineRoute({
    method: 'POST',
    pattern: '/orders/:orderId/resend',
    ...byOrderId,
    answer: orderCreatedSchema,
    doc: {
      id: 'resendOrder',
      tag: 'Orders',
      summary: 'Send a refused order again',
      summaryRu: 'Отправить заказ в службу повторно',
      description: [
        'Sends an order its delivery service refused (`uploadingError`) again, with its current data (after a PUT that corrected it): status `uploading`, then `uploaded` or `uploadingError`. `{ orderId, created }`. The body (`{ orderId }` as the SDK sends it) is not read.',
        '- Any other live order is answered the same and nothing is added: one still being sent is queued already, a registered one got its changes queued by PUT.',
        '- A canceled order: 400 040000.',
      ].join('\n'),
      formats: ['json', 'xml'],
      params: orderIdDoc,
      answer: { name: 'OrderCreated', description: 'The order is queued for its delivery service.', example: { orderId: '42', created: '2026-03-01T10:15:17+03:00' } },
      errors: [unauthorizedRow, orderNotFoundRow, { status: 400, code: ErrorCode.general, when: 'The order is canceled.' }],
    },
    handler: (req, app) => app.services.orders.resend(req.ctx, req.params.orderId),
  }),
];

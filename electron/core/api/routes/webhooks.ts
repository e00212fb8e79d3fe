import { z } from 'zod';
import { ErrorCode } from '../../../../shared/errors';
import { listPagingSchema, pageLimits } from '../../lists/lists-service';
import { maxWebhookAttempts, webhookRetryDelays, webhookTimeoutMs } from '../../webhooks/webhook-delivery';
import { webhookAttemptSchema, webhookRowSchema, webhookTypes } from '../../../../shared/contract/webhooks';
import { lastAttemptsShown, maxWebhooksPerCompany } from '../../webhooks/webhook-service';
import { signatureHeader } from '../../webhooks/signature';
import { bodyRows, pagingRow, unauthorizedRow, validationRow } from '../openapi/operations';
import { defineRoute, type Route } from '../route';

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const webhookCreateRequest = z.object({
  url: z
    .string({ message: 'is required' })
    .trim()
    .max(2000, 'must be at most 2000 characters')
    .refine((url) => URL.canParse(url) && ['http:', 'https:'].includes(new URL(url).protocol), 'must be an http:// or https:// link'),
  type: z.enum(webhookTypes, { message: `must be ${webhookTypes.join(' or ')}` }),
});

const webhookBase = webhookRowSchema.omit({ lastAttempts: true });
const webhookCreatedSchema = webhookBase.extend({ secret: z.string() });
const meta = z.object({ total: z.number().int(), offset: z.number().int(), limit: z.number().int() });
const pageOf = (row: z.ZodType) => z.object({ rows: z.array(row), meta });
const uuidParams = z.object({ uuid: z.string().regex(uuidShape, 'must be a webhook uuid') });
const paging = ({ limit = pageLimits.defaultLimit, offset = 0 }: { limit?: number; offset?: number }) => ({ limit, offset });
const notFoundRow = { status: 404, code: ErrorCode.notFound, when: 'No webhook with this uuid in the calling company (another company\'s is unknown too).' };
const pagingDocs = {
  limit: { description: `Page size, 1 to ${pageLimits.maxLimit}; ${pageLimits.defaultLimit} when absent or empty.` },
  offset: { description: 'Rows to skip, 0 or more; 0 when absent or empty.' },
};
const minutes = (ms: number) => (ms < 3_600_000 ? `${ms / 60_000} min` : `${ms / 3_600_000} h`);

/** Status webhooks of the calling company, as the aggregator's CMS modules register them. */
export const webhookRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    pattern: '/webhooks',
    body: webhookCreateRequest,
    answer: webhookCreatedSchema,
    doc: {
      id: 'createWebhook',
      tag: 'Integration',
      summary: 'Have the shop\'s site called when an order\'s status changes',
      summaryRu: 'Подписать сайт на смену статусов заказов',
      description: [
        '`{ url, type: "ORDER_STATUS" }` → `{ uuid, url, type, created, secret }`. From then on, every status recorded for one of the company\'s orders (created, sent, refreshed from the service, canceled…) is POSTed to `url` as JSON: `{ type: "ORDER_STATUS", webhookUuid, deliveryId, orderInfo, status }`, with `orderInfo` and `status` as GET /orders/{orderId}/status answers them.',
        `- **Signature** (ours): each call carries \`${signatureHeader}: sha256=<hex>\`, the HMAC-SHA256 of the exact body bytes keyed by this webhook's \`secret\`; a site recomputes it and compares in constant time. Also \`X-ShipDesk-Webhook\` (the uuid) and \`X-ShipDesk-Delivery\` (the \`deliveryId\`).`,
        '- `secret` is answered here only (GET lists never show it). POSTing the same `url` and `type` again answers the existing webhook with its secret instead of adding a second one.',
        `- **Delivery**: done when the site answers 2xx within ${webhookTimeoutMs / 1000} s; otherwise tried again after ${webhookRetryDelays.map(minutes).join(', ')} — ${maxWebhookAttempts} attempts in all, then given up. The calls wait in the database: a restart of ShipDesk loses none. At least once: a call can come twice (same \`deliveryId\`), and retries can arrive after newer statuses — compare \`status.created\`, or read the current status.`,
        '- Redirects are not followed (a 3xx counts as a failed attempt). Calls go to public internet addresses only: this computer, local and private networks are refused unless the shop\'s owner allows them in Settings → Local API (ours).',
        `- At most ${maxWebhooksPerCompany} webhooks per company. Each attempt is listed with its webhook (GET /webhooks, GET /webhooks/{uuid}/attempts) and written to ShipDesk's log.`,
      ].join('\n'),
      formats: ['json', 'xml'],
      body: { name: 'WebhookCreate', description: 'Where to call, and on what.', example: { url: 'https://shop.example.ru/shipdesk/status', type: 'ORDER_STATUS' } },
      answer: {
        name: 'WebhookCreated',
        description: 'The webhook and its signing secret.',
        example: { uuid: '0b8e2f0c-5a1d-4a43-9d55-5d2b3f7c9e10', url: 'https://shop.example.ru/shipdesk/status', type: 'ORDER_STATUS', created: '2026-03-01T10:00:00+03:00', secret: 'whsec_…' },
      },
      errors: [
        unauthorizedRow,
        validationRow(`\`url\` is not an http(s) link, or points to this computer or a local network while that is not allowed; \`type\` is not ORDER_STATUS; the company has ${maxWebhooksPerCompany} webhooks already.`),
        ...bodyRows,
      ],
    },
    handler: ({ ctx, body }, app) => app.services.webhooks.register(ctx, body),
  }),
  defineRoute({
    method: 'GET',
    pattern: '/webhooks',
    query: listPagingSchema,
    answer: pageOf(webhookRowSchema),
    doc: {
      id: 'listWebhooks',
      tag: 'Integration',
      summary: 'The company\'s webhooks with their last attempts',
      summaryRu: 'Подписки компании и последние попытки вызова',
      description: `The calling company's webhooks, oldest first, paged like the lists (\`{ rows, meta }\`, ours). Each carries its last ${lastAttemptsShown} attempts, newest first: when, which call (\`deliveryId\`, \`orderId\`, \`statusKey\`), the site's HTTP status or why there was none, and whether it counted as delivered. Secrets are not listed.`,
      formats: ['json', 'xml'],
      params: pagingDocs,
      answer: { name: 'WebhooksPage', description: 'One page of webhooks.' },
      errors: [unauthorizedRow, pagingRow(`1..${pageLimits.maxLimit}`, '≥ 0')],
    },
    handler: ({ ctx, query }, app) => app.services.webhooks.list(ctx, paging(query)),
  }),
  defineRoute({
    method: 'GET',
    pattern: '/webhooks/:uuid/attempts',
    params: uuidParams,
    query: listPagingSchema,
    answer: pageOf(webhookAttemptSchema),
    doc: {
      id: 'webhookAttempts',
      tag: 'Integration',
      summary: 'Every attempt of one webhook',
      summaryRu: 'Все попытки вызова по подписке',
      description: 'The attempts of the webhook\'s calls, newest first (ours). Finished calls and their attempts are kept 30 days.',
      formats: ['json', 'xml'],
      params: { uuid: { description: 'The webhook\'s uuid.' }, ...pagingDocs },
      answer: { name: 'WebhookAttemptsPage', description: 'One page of attempts.' },
      errors: [unauthorizedRow, notFoundRow, validationRow('`uuid` is not a uuid.'), pagingRow(`1..${pageLimits.maxLimit}`, '≥ 0')],
    },
    handler: ({ ctx, params, query }, app) => app.services.webhooks.attempts(ctx, params.uuid, paging(query)),
  }),
  defineRoute({
    method: 'DELETE',
    pattern: '/webhooks/:uuid',
    params: uuidParams,
    ids: { uuid: uuidShape },
    answer: z.object({ uuid: z.string(), deleted: z.literal(true) }),
    doc: {
      id: 'deleteWebhook',
      tag: 'Integration',
      summary: 'Stop calling the site',
      summaryRu: 'Отписать сайт',
      description: 'Removes the webhook: no further calls, the ones still waiting are dropped, and its attempts are forgotten.',
      formats: ['json', 'xml'],
      params: { uuid: { description: 'The webhook\'s uuid.' } },
      answer: { name: 'WebhookDeleted', description: '`{ uuid, deleted: true }`.' },
      errors: [unauthorizedRow, notFoundRow, validationRow('`uuid` is not a uuid.')],
    },
    handler: ({ ctx, params }, app) => app.services.webhooks.remove(ctx, params.uuid),
  }),
];

import { z } from 'zod';
import { ErrorCode } from '../../../../shared/errors';
import type { App } from '../../app';
import { AppError, validationError } from '../../errors';
import { listPagingSchema, pageLimits } from '../../lists/lists-service';
import { bodyRows, pagingRow, unauthorizedRow, validationRow } from '../openapi/operations';
import { defineRoute, type Route } from '../route';

/** A delivery-service connection as the aggregator's clients list it; secrets never. */
const connectionRowSchema = z.object({
  /** The providerConnectId of orders; null for a built-in sandbox service, which needs no connection. */
  id: z.number().int().nullable(),
  providerKey: z.string(),
  name: z.string(),
  /** 1: the service's public test account (no credentials of the shop's own). */
  isUseBaseConnect: z.union([z.literal(0), z.literal(1)]),
  testMode: z.boolean(),
  created: z.string().nullable(),
  updated: z.string().nullable(),
});
const connectionsPageSchema = z.object({
  rows: z.array(connectionRowSchema),
  meta: z.object({ total: z.number().int(), offset: z.number().int(), limit: z.number().int() }),
});

/**
 * `filter` as the WooCommerce module writes it, JSON (`{"providerKey":"cdek"}`), or as the lists take it
 * (`providerKey=cdek`): only providerKey is read.
 */
const connectionsQuery = listPagingSchema.extend({
  filter: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (!text?.trim()) return {};
      if (text.trim().startsWith('{')) {
        try {
          const parsed = JSON.parse(text) as unknown;
          if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
            const key = (parsed as Record<string, unknown>).providerKey;
            return key === undefined ? {} : { providerKey: String(key) };
          }
        } catch {
          // reported below
        }
        ctx.addIssue({ code: 'custom', message: 'must be a JSON object such as {"providerKey":"cdek"} or providerKey=<key>' });
        return z.NEVER;
      }
      const match = /^\s*providerKey\s*=\s*["']?([^"';]+)["']?\s*$/.exec(text);
      if (!match) {
        ctx.addIssue({ code: 'custom', message: 'only providerKey can be filtered: {"providerKey":"cdek"} or providerKey=cdek' });
        return z.NEVER;
      }
      return { providerKey: match[1] };
    }),
});

const connectionCreateRequest = z.object({
  providerKey: z.string().trim().min(1).max(50),
  name: z.string().trim().min(1).max(100),
  isUseBaseConnect: z.union([z.literal(1), z.literal('1'), z.literal(true), z.literal(0), z.literal('0'), z.literal(false)]).optional(),
  /** Credentials are set by the owner in ShipDesk (Settings → Delivery services), never through the API. */
  connectParams: z.unknown().optional(),
  insuranceRate: z.unknown().optional(),
  cashServiceRate: z.unknown().optional(),
});

/** The company's usable services: the built-in sandbox ones and the connected accounts. */
async function connectionRows(app: App): Promise<z.output<typeof connectionRowSchema>[]> {
  const builtIn = app.providers
    .list()
    .filter((p) => p.test)
    .map((p) => ({ id: null, providerKey: p.key, name: p.name, isUseBaseConnect: 1 as const, testMode: true, created: null, updated: null }));
  const connected = (await app.services.connections.list()).map((c) => ({
    id: c.id,
    providerKey: c.providerKey,
    name: c.name,
    isUseBaseConnect: (c.testMode && !c.credentialsStored ? 1 : 0) as 0 | 1,
    testMode: c.testMode,
    created: c.created,
    updated: c.updated,
  }));
  return [...builtIn, ...connected];
}

const loginRequestSchema = z.object({ login: z.string().trim().min(1).max(200), password: z.string().min(1).max(500) });
const loginAnswerSchema = z.object({ accessToken: z.string() });

/**
 * What existing integrations of the aggregator call beyond the interface document: the login of the SDK's
 * default adapter, the company's delivery-service connections and its status webhooks.
 */
export const integrationRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    pattern: '/login',
    public: true,
    body: loginRequestSchema,
    answer: loginAnswerSchema,
    doc: {
      id: 'login',
      tag: 'Integration',
      summary: 'Trade the API login and password for the token',
      summaryRu: 'Получить токен по логину и паролю',
      description: [
        '`{ login, password }` → `{ accessToken }`: the token of the company whose API login this is, to send as `Authorization` on every other call. This is what the aggregator\'s PHP SDK does with its default adapter (it keeps the token 5 minutes).',
        '- The owner sets the login and password in Settings → Local API (browser mode: `npm run serve -- --token <t> --login <name>:<password>` gives the last `--token`\'s company that login). The password is stored as an scrypt hash.',
        '- Wrong login or password: 401 040101. After 10 failures within a minute from one address or for one login: 429 040429 until the oldest is a minute old.',
        '- Public: no token needed.',
      ].join('\n'),
      formats: ['json', 'xml'],
      body: { name: 'LoginRequest', description: 'The API login and password.', example: { login: 'shop-site', password: 'correct horse battery staple' } },
      answer: { name: 'LoginAnswer', description: 'The company\'s API token.', example: { accessToken: 'k2XbQ1…' } },
      errors: [
        { status: 401, code: ErrorCode.unauthorized, when: 'No company has this login, or the password is wrong.' },
        { status: 429, code: ErrorCode.tooManyAttempts, when: 'Too many failed attempts from this address or for this login in the last minute.' },
        validationRow('`login` or `password` is missing or empty.'),
        ...bodyRows,
      ],
    },
    handler: (req, app) => app.services.apiLogins.login(req.body, req.remoteAddress ?? 'unknown'),
  }),
  defineRoute({
    method: 'GET',
    pattern: '/connections',
    query: connectionsQuery,
    answer: connectionsPageSchema,
    doc: {
      id: 'listConnections',
      tag: 'Integration',
      summary: 'Delivery-service connections',
      summaryRu: 'Подключения к службам доставки',
      description: [
        'The delivery services this ShipDesk can use, one row per connection: the built-in sandbox services (`id` null, `isUseBaseConnect` 1) and the accounts the owner connected in Settings (`id` is the `providerConnectId` of orders). Paged like the lists: `{ rows, meta }`.',
        '- Whose (ours): connections are the shop\'s, set up by its owner once for the whole ShipDesk, not per company. Every company\'s API client sees the same rows, since each may send orders through them (it needs `id` as `providerConnectId`) — read-only, with nothing to sign in with.',
        '- Secrets are never returned: no credentials, no tokens, no parts of them.',
        '- `filter` takes only `providerKey`, written as JSON (`{"providerKey":"cdek"}`, as the WooCommerce module sends it) or as in the lists (`providerKey=cdek`).',
      ].join('\n'),
      formats: ['json', 'xml'],
      params: {
        limit: { description: `Page size, 1 to ${pageLimits.maxLimit}; ${pageLimits.defaultLimit} when absent or empty.` },
        offset: { description: 'Rows to skip, 0 or more; 0 when absent or empty.' },
        filter: { description: '`{"providerKey":"<key>"}` or `providerKey=<key>`: only that service\'s connections.', example: '{"providerKey":"cdek"}' },
      },
      answer: { name: 'ConnectionsPage', description: 'One page of connections.' },
      errors: [unauthorizedRow, pagingRow(`1..${pageLimits.maxLimit}`, '≥ 0'), validationRow('`filter` is neither `{"providerKey":…}` nor `providerKey=…`.')],
    },
    handler: async ({ query: { filter, limit = pageLimits.defaultLimit, offset = 0 } }, app) => {
      const rows = (await connectionRows(app)).filter((r) => !filter.providerKey || r.providerKey === filter.providerKey);
      return { rows: rows.slice(offset, offset + limit), meta: { total: rows.length, offset, limit } };
    },
  }),
  defineRoute({
    method: 'POST',
    pattern: '/connections',
    body: connectionCreateRequest,
    answer: connectionRowSchema,
    doc: {
      id: 'createConnection',
      tag: 'Integration',
      summary: 'Connect a delivery service through its test account',
      summaryRu: 'Подключить службу доставки (тестовый доступ)',
      description: [
        '`{ providerKey, name, isUseBaseConnect: 1 }`, as the WooCommerce module sends it when a service has no connection yet → the new connection\'s row.',
        `- Only the service's public test account can be connected this way (\`isUseBaseConnect\` 1; a service whose kind has a public test account, such as \`cdek\`). A shop's own credentials (\`connectParams\`) are entered by the owner in ShipDesk, never sent through the API: 403 040000 (ours).`,
        '- A built-in sandbox service needs no connection: its existing row is answered.',
        '- The connection made is the shop\'s, like every connection: the owner sees it in Settings → Delivery services and every company can use it (ours).',
        '- `insuranceRate`, `cashServiceRate` are not read (the fees come from the service).',
      ].join('\n'),
      formats: ['json', 'xml'],
      body: { name: 'ConnectionCreate', description: 'The service and a name.', example: { providerKey: 'cdek', name: 'Новое соединение для cdek', isUseBaseConnect: 1 } },
      answer: { name: 'ConnectionRow', description: 'The connection.' },
      errors: [
        unauthorizedRow,
        validationRow('`providerKey` names no connectable service, or `name` is missing.'),
        { status: 403, code: ErrorCode.general, when: 'A connection with the shop\'s own credentials was asked for (`isUseBaseConnect` 0): the owner enters those in ShipDesk.' },
        ...bodyRows,
      ],
    },
    handler: async ({ body }, app) => {
      const builtIn = (await connectionRows(app)).find((r) => r.id === null && r.providerKey === body.providerKey);
      if (builtIn) return builtIn;
      const base = body.isUseBaseConnect === undefined || [1, '1', true].includes(body.isUseBaseConnect);
      if (!base) {
        throw new AppError(403, {
          code: ErrorCode.general,
          message: 'Forbidden',
          description: 'A delivery service account with its own credentials is connected by the owner in ShipDesk (Settings → Delivery services), not through the API',
        });
      }
      const open = app.services.connections.kinds().filter((k) => k.publicTestAccount).map((k) => k.key);
      if (!open.includes(body.providerKey)) {
        throw validationError([{ field: 'providerKey', message: `must be a service with a public test account (${open.join(', ')}), not ${body.providerKey}` }]);
      }
      const c = await app.services.connections.create({ providerKey: body.providerKey, name: body.name, testMode: true });
      return { id: c.id, providerKey: c.providerKey, name: c.name, isUseBaseConnect: 1, testMode: c.testMode, created: c.created, updated: c.updated };
    },
  }),
];

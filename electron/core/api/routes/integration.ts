import { z } from 'zod';
import { ErrorCode } from '../../../../shared/errors';
import { bodyRows, validationRow } from '../openapi/operations';
import { defineRoute, type Route } from '../route';

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
        '- Wrong login or password: 401 040101. After 10 failures within a minute from one address or for one login: 429 040000 until the oldest is a minute old.',
        '- Public: no token needed.',
      ].join('\n'),
      formats: ['json', 'xml'],
      body: { name: 'LoginRequest', description: 'The API login and password.', example: { login: 'shop-site', password: 'correct horse battery staple' } },
      answer: { name: 'LoginAnswer', description: 'The company\'s API token.', example: { accessToken: 'k2XbQ1…' } },
      errors: [
        { status: 401, code: ErrorCode.unauthorized, when: 'No company has this login, or the password is wrong.' },
        { status: 429, code: ErrorCode.general, when: 'Too many failed attempts from this address or for this login in the last minute.' },
        validationRow('`login` or `password` is missing or empty.'),
        ...bodyRows,
      ],
    },
    handler: (req, app) => app.services.apiLogins.login(req.body, req.remoteAddress ?? 'unknown'),
  }),
];

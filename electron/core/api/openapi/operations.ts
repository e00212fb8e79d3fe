import type { z } from 'zod';
import { DEFAULT_COMMAND_BODY_LIMIT } from '../../../../shared/contract/define';
import { commandBodyLimits, DEFAULT_BODY_LIMIT, INLINE_PARSE_LIMIT, mibOf, UPLOAD_BODY_LIMIT } from '../body-limits';
import { MAX_INPUT_DEPTH } from '../../validation';
import { PARCEL_LIMITS } from '../../../../shared/schemas/primitives';
import { ErrorCode, type ErrorCodeValue } from '../../../../shared/errors';
import { filterLimits } from '../../lists/filter';
import { pageLimits } from '../../lists/lists-service';
import type { ErrorRow, HttpMethod, Route, RouteDoc, Tag } from '../route';

/**
 * The vocabulary of the reference: error rows and texts many operations share, the general chapters, and
 * `operationsOf`, which reads the documented routes (route.ts: each carries its schemas and its doc) as the
 * operations `/openapi.json` and `/docs` are generated from. The routes are the one registry.
 *
 * Descriptions are CommonMark (paragraphs, `- ` lists, `code`, **bold**): OpenAPI renders them and the
 * reference page understands the same subset. "(ours)" marks a decision where the interface document
 * and the wire conventions are silent.
 */

export type { ErrorRow, Tag };

export interface ParamDoc {
  name: string;
  in: 'path' | 'query';
  /** The schema the server parses the value with (query values arrive as text). */
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

/** One documented operation, as read from its route. */
export interface Operation {
  /** operationId, also the anchor on the reference page. */
  id: string;
  method: Exclude<HttpMethod, 'PATCH'>;
  /** OpenAPI form, without /v1: `/orders/{orderId}`. */
  path: string;
  tag: Tag;
  summary: string;
  summaryRu: string;
  description: string;
  /** Served without a token. */
  public?: boolean;
  /** Media types of the answer. */
  formats: RouteDoc['formats'];
  params?: ParamDoc[];
  body?: BodyDoc;
  /** HTTP 200. */
  response: ResponseDoc;
  /** Other shapes of the 200 answer (upload: sync or async). */
  alternatives?: ResponseDoc[];
  errors: ErrorRow[];
}

const shapeOf = (schema: z.ZodType | undefined): Record<string, z.ZodType> => {
  let def = (schema as { _zod?: { def?: { type?: string; shape?: Record<string, z.ZodType>; out?: z.ZodType } } } | undefined)?._zod?.def;
  // A preprocessed object (`z.preprocess(f, z.object(...))`) documents its object.
  if (def?.type === 'pipe' && def.out) def = (def.out as { _zod?: { def?: { type?: string; shape?: Record<string, z.ZodType> } } })._zod?.def;
  return def?.type === 'object' && def.shape ? def.shape : {};
};

/** The parameters of a route: its params and query schemas' fields, described by its doc. */
function paramsOf(route: Route, doc: RouteDoc): ParamDoc[] {
  const params = (where: 'path' | 'query', schema: z.ZodType | undefined) =>
    Object.entries(shapeOf(schema)).map(([name, field]): ParamDoc => {
      const text = doc.params?.[name];
      if (!text) throw new Error(`openapi: ${doc.id} does not describe its parameter ${name}`);
      return { name, in: where, schema: field, required: where === 'path' || !field.safeParse(undefined).success, description: text.description, ...(text.example !== undefined ? { example: text.example } : {}) };
    });
  return [...params('path', route.params), ...params('query', route.query)];
}

/** The documented routes as operations (OpenAPI paths write `:orderId` as `{orderId}`). */
export function operationsOf(routes: Route[]): Operation[] {
  return routes.flatMap((route): Operation[] => {
    const doc = route.doc;
    if (!doc) return [];
    if (!route.answer) throw new Error(`openapi: ${doc.id} has no answer schema`);
    if (!!route.body !== !!doc.body) throw new Error(`openapi: ${doc.id} documents a body it does not parse, or parses one it does not document`);
    const params = paramsOf(route, doc);
    return [
      {
        id: doc.id,
        method: route.method as Operation['method'],
        path: route.pattern.replace(/:(\w+)/g, '{$1}'),
        tag: doc.tag,
        summary: doc.summary,
        summaryRu: doc.summaryRu,
        description: doc.description,
        ...(route.public ? { public: true } : {}),
        formats: doc.formats,
        ...(params.length ? { params } : {}),
        ...(doc.body && route.body ? { body: { ...doc.body, schema: route.body } } : {}),
        response: { ...doc.answer, schema: route.answer },
        ...(doc.alternatives ? { alternatives: doc.alternatives } : {}),
        errors: doc.errors,
      },
    ];
  });
}

const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`;

// ---- rows shared by many operations ------------------------------------------------------------

export const unauthorizedRow: ErrorRow = { status: 401, code: ErrorCode.unauthorized, when: 'The Authorization header is missing or carries no known token.' };
export const bodyRows: ErrorRow[] = [
  { status: 400, code: ErrorCode.general, when: 'The body is not well-formed JSON or XML (description says where).' },
  { status: 400, code: ErrorCode.notUtf8, when: 'The body is not UTF-8, or Content-Type names another charset.' },
  { status: 413, code: ErrorCode.general, when: `The body is larger than the operation accepts (${mib(DEFAULT_BODY_LIMIT)} unless said otherwise).` },
];
export const validationRow = (when: string): ErrorRow => ({ status: 400, code: ErrorCode.validation, when });
export const calculatorRow = (when: string): ErrorRow => ({ status: 400, code: ErrorCode.calculatorValidation, when });
export const orderNotFoundRow: ErrorRow = {
  status: 404,
  code: ErrorCode.orderNotFound,
  when: 'No such order of the calling company: unknown, deleted, another company\'s, or an id that is not a positive whole number.',
};

const names = (fields: Record<string, unknown> | readonly string[]) =>
  (Array.isArray(fields) ? fields : Object.keys(fields)).map((f) => `\`${f}\``).join(', ');

export const listFilterRows: ErrorRow[] = [
  {
    status: 400,
    code: ErrorCode.invalidFilter,
    when: 'The filter is malformed (the description gives the position of a syntax error): trailing `;`, an unknown operator such as `>=`, an array with an operator other than `=`, `%` on a number field, text where the field takes numbers, an unterminated quote, more than the limits.',
  },
  { status: 400, code: ErrorCode.fieldNotFilterable, when: 'The filter names a field the list cannot be filtered by; description lists the filterable fields.' },
];
export const fieldsRow: ErrorRow = {
  status: 400,
  code: ErrorCode.unknownField,
  when: '`fields` names a field the records do not have (one `errors[]` entry per unknown name).',
};
export const pagingRow = (limit: string, offset: string): ErrorRow =>
  validationRow(`\`limit\` or \`offset\` is not a whole number within bounds (limit ${limit}, offset ${offset}); errors[] names the parameter.`);

// ---- parameters --------------------------------------------------------------------------------

type ParamText = NonNullable<RouteDoc['params']>;

export const filterDoc = (fields: Record<string, unknown>, extra = '') =>
  `Conditions \`field op value\` joined by \`;\` (see "Lists: paging, filter, fields"). Filterable: ${names(fields)}.${extra}`;

/** The parameters of a reference list. */
export const listParamDocs = (filterFields: Record<string, unknown>, recordFields: readonly string[]): ParamText => ({
  limit: { description: `Page size, 1 to ${pageLimits.maxLimit}; ${pageLimits.defaultLimit} when absent or empty.` },
  offset: { description: 'Rows to skip, 0 or more; 0 when absent or empty.' },
  filter: { description: filterDoc(filterFields), example: 'providerKey=sandbox-express;city=Москва' },
  fields: { description: `Comma-separated top-level fields to return, in record order: ${names(recordFields)}. Empty: all.`, example: 'id,providerKey,name' },
});

export const orderIdDoc: ParamText = {
  orderId: { description: 'The service-side order id, as POST /orders returned it (a positive whole number written as text).', example: '42' },
};

/** Unlike the reference lists, the status methods do not take an empty value as the default. */
const emptyIsError = 'An empty value (`limit=`) is 040002.';

export const historyPagingDocs = (bounds: 'order' | 'list'): ParamText =>
  bounds === 'order'
    ? {
        offset: { description: `Rows to skip, 0 to 5000 (the interface's bound); 0 when absent. ${emptyIsError}` },
        limit: { description: `Rows to return, 1 to 100 (the interface's bound); 100 when absent. ${emptyIsError}` },
      }
    : {
        offset: { description: `Orders to skip, 0 or more; 0 when absent. ${emptyIsError}` },
        limit: { description: `Orders to return, 1 to 1000 (wire conventions); 100 when absent. ${emptyIsError}` },
      };

export const clientNumberDoc: ParamText = {
  clientNumber: { description: 'The client\'s order number (`order.clientNumber`). The live order with that number, else the newest canceled one (ours).', example: 'SHOP-1001' },
};

export const momentDoc =
  'A calendar date `YYYY-MM-DD` (from that day\'s local midnight, inclusive) or an ISO 8601 timestamp (strictly after it, so a client can poll with the last `created` it saw). Timestamps may carry `Z`, `+03:00`, `+0300` or no offset (local time); an unencoded `+` that arrives as a space is read as `+`.';

// ---- examples ----------------------------------------------------------------------------------

export const createExample = {
  order: { clientNumber: 'SHOP-1001', providerKey: 'sandbox-express', deliveryType: 1, pickupType: 1, tariffId: 103, weight: 1200, length: 30, width: 20, height: 10 },
  cost: { assessedCost: 2500, codCost: 2990.5, deliveryCost: 490.5 },
  sender: { countryCode: 'RU', city: 'Москва', street: 'Тверская', house: '7', contactName: 'Иван Петров', phone: '+79161234567', companyName: 'ООО Ромашка' },
  recipient: { countryCode: 'RU', city: 'Санкт-Петербург', street: 'Невский проспект', house: '28', office: '5', contactName: 'Анна Смирнова', phone: '+79219876543' },
  places: [{ weight: 1200, items: [{ description: 'Футболка', articul: 'TS-01', quantity: 2, assessedCost: 1000, cost: 1000, weight: 300 }, { description: 'Кепка', quantity: 1, cost: 500, weight: 200 }] }],
};
export const statusExample = {
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
export const orderInfoExample = {
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

/** Error codes of the interface with their HTTP statuses, for the general section. */
export const errorCodes: { code: ErrorCodeValue; status: string; meaning: string }[] = [
  { code: ErrorCode.general, status: '400 (403, 404, 405, 408, 413, 431, 504)', meaning: 'General error: malformed body, URL or request, an order state that does not allow the change, a file that cannot be read, a delivery service\'s refusal (POST /orders/sync); also a wrong Host header (403), a wrong method (405), a request that took too long (408), a body too large (413), a URL and headers over 16 KiB (431), a delivery service that did not answer in time (504).' },
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
  { code: ErrorCode.forbidden, status: '403', meaning: 'The caller may not do this: an API token on the window\'s `/app/...` transport, or a packer calling an owner-only command (settings, connections, backups, users, tokens).' },
  { code: ErrorCode.tooManyAttempts, status: '429', meaning: 'Too many failed sign-ins for the name or from the address (the window transport\'s sign-in and POST /login); the description says how long to wait.' },
  { code: ErrorCode.cannotCancel, status: '403', meaning: 'The delivery service cannot do this (cancel, change or delete a registered order); the description says what to do instead.' },
  { code: ErrorCode.internal, status: '500', meaning: 'Something went wrong on our side; nothing was changed.' },
  { code: ErrorCode.storageFull, status: '507', meaning: 'The disk of the ShipDesk data folder is full, or the folder is read-only or gone: nothing was changed. Reads still answer. Writes work again without a restart once there is space, or once the moved database file is back in its folder; a different file put in its place is opened only by a restart.' },
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
      'ShipDesk serves the interface on `http://127.0.0.1:<port>` (`npm run serve -- --port <port>`, 4318 by default). It answers only to `Host: 127.0.0.1:<port>` or `localhost:<port>` (403 otherwise) and sends no CORS headers. Other computers of the shop reach it only when the owner turns on Settings → Access from other computers and offers the interface there: then also over HTTPS on the addresses chosen (port 4319 by default; a self-signed certificate whose SHA-256 fingerprint the settings show), answering only to the names and addresses configured (403 otherwise).',
      '**Every path is served both with and without the `/v1` prefix** — `/v1/lists/points` and `/lists/points` are the same operation — and with or without a trailing slash. This reference lists each path once, without the prefix. Query parameters an operation does not know are ignored.',
    ].join('\n\n'),
  },
  {
    id: 'authentication',
    title: 'Authentication',
    body: [
      'Every operation except this reference (`/openapi.json`, `/docs`) needs `Authorization: <token>` — the raw token, no scheme; `Authorization: Bearer <token>` is accepted too. A missing or unknown token is 401 with code 040101.',
      'Each token belongs to one client company (`--token` in browser mode; the shop\'s own token otherwise). A company sees only its own orders: another company\'s order answers 404 040080, exactly like an unknown one.',
      'A token opens this interface only. The window\'s own transport (`/app/commands/*`, `/app/events`) takes a browser session (`Authorization: Session <secret>`: the link `npm start` prints, or a packer\'s sign-in) and answers a token with 403, code 040103; each command there declares the roles (owner, packer) that may call it.',
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
      `- Weights in grams (at most ${PARCEL_LIMITS.maxGrams.toLocaleString('en')}), sizes in centimetres (at most ${PARCEL_LIMITS.maxCentimetres.toLocaleString('en')}), item quantities at most ${PARCEL_LIMITS.maxQuantity.toLocaleString('en')} (PARCEL_LIMITS), money in rubles with at most two decimals (kopecks; up to 100 000 000), kept exact. Whole numbers past 9007199254740991 (identifiers, or a clientNumber sent as a JSON number) are refused: a JSON reader has already changed their last digits; send them as text.`,
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
    id: 'limits',
    title: 'Limits',
    body: [
      `- Request bodies: ${mib(DEFAULT_BODY_LIMIT)} (DEFAULT_BODY_LIMIT) unless the operation says otherwise; POST /orders/upload ${mib(UPLOAD_BODY_LIMIT)} (UPLOAD_BODY_LIMIT). Larger: 413 040000, said before the body is read when Content-Length gives it away, otherwise as soon as the bytes received pass the limit.`,
      `- The browser-mode window's commands (POST /app/commands/<name>): ${mib(DEFAULT_COMMAND_BODY_LIMIT)} each unless the command declares its own beside its roles: ${commandBodyLimits().map(([name, bytes]) => `${name} ${mibOf(bytes)} MiB`).join(', ')}.`,
      `- Bodies over ${INLINE_PARSE_LIMIT / 1024} KiB (INLINE_PARSE_LIMIT) are parsed on threads of their own (BODY_PARSE_THREADS: one fewer than the computer's cores, at least 1 and at most 2): a large upload waits its turn there, and other calls are answered meanwhile.`,
      `- Nesting: at most ${MAX_INPUT_DEPTH} levels (MAX_INPUT_DEPTH); deeper is 400 040002 naming where. Text must be well-formed Unicode: a lone UTF-16 surrogate (\\uD800 in JSON) is 400 040002 naming the field.`,
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

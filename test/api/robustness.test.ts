import { request } from 'node:http';
import fc from 'fast-check';
import type { z } from 'zod';
import { responseFormat } from '../../electron/core/api/codec';
import { buildOpenApiDocument } from '../../electron/core/api/openapi/document';
import { errorCodes, type Operation } from '../../electron/core/api/openapi/operations';
import { operations } from '../../electron/core/api/routes';
import { errorBodySchema } from '../../electron/core/api/openapi/schemas';
import { parseXmlBody, toXmlDocument } from '../../electron/core/api/xml';
import type { Logger } from '../../electron/core/logger';
import { ordersWorkbook, sampleOrder, uploadBody } from '../fixtures/xlsx/orders-workbook';
import { orderPayload } from '../helpers/payloads';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * Robustness of every documented operation, property-based against a real server: random bodies (any JSON,
 * objects shaped like the documented schema with wrong types, mutated valid examples, huge strings, deep
 * nesting, unicode, 1e309 / -0 / "NaN"), random query strings and path ids, in JSON and XML, with good and
 * bad tokens. The server must never answer 5xx, and must answer either 2xx (with the documented body) or
 * the interface's error body with the HTTP status of its code. Fixed seed, bounded runs: deterministic.
 */

/** Fixed by default; ROBUSTNESS_SEED / ROBUSTNESS_RUNS explore further (`ROBUSTNESS_SEED=7 ROBUSTNESS_RUNS=1000 npx vitest run test/api/robustness`). */
const seed = Number(process.env.ROBUSTNESS_SEED ?? 20_260_301);
const runsPerOperation = Number(process.env.ROBUSTNESS_RUNS ?? 120);
const runsOf: Partial<Record<string, number>> = { uploadOrders: Math.ceil(runsPerOperation / 2) };

// ---- the server, with a log that keeps what a 500 leaves behind ------------------------------------

const logged: string[] = [];
const recordingLog: Logger = {
  info: () => {},
  warn: () => {},
  error: (message, error) => logged.push(`${message}: ${error instanceof Error ? error.stack : String(error)}`),
  child: () => recordingLog,
};

let server: TestServer;
const realOrderIds: string[] = [];
let uploadTemplate: Record<string, unknown>;

beforeAll(async () => {
  server = await startTestServer({
    log: recordingLog,
    // sync uploads do not wait for the delivery services; file.url values are local (see specialStrings)
    imports: { registrationWaitMs: 0, downloadTimeoutMs: 500 },
  });
  for (const n of [1, 2, 3]) {
    const res = await server.call('POST', '/orders', { body: orderPayload(`ROBUST-${n}`) });
    realOrderIds.push(res.json.orderId);
  }
  await server.call('GET', `/orders/${realOrderIds[2]}/cancel`);
  const { buffer, columnMap } = await ordersWorkbook([sampleOrder('ROBUST-U1')], { itemsNewRow: true });
  uploadTemplate = uploadBody(buffer, columnMap, { itemsNewRow: true }) as unknown as Record<string, unknown>;
}, 60_000);

afterAll(async () => {
  await server?.close();
});

// ---- raw values that JSON.stringify cannot write -----------------------------------------------------

/** A leaf written as raw text: `1e309`, `-0`, a 100 000-deep nesting. */
class Raw {
  constructor(
    readonly json: string,
    readonly xml: string,
  ) {}
}

const deepArray = (n: number) => new Raw(`${'['.repeat(n)}${']'.repeat(n)}`, `${'<item>'.repeat(Math.min(n, 5000))}${'</item>'.repeat(Math.min(n, 5000))}`);
const deepObject = (n: number) => new Raw(`${'{"a":'.repeat(n)}1${'}'.repeat(n)}`, `${'<a>'.repeat(Math.min(n, 5000))}1${'</a>'.repeat(Math.min(n, 5000))}`);

function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_, v) => {
    if (v instanceof Raw) {
      raws.push(v.json);
      return `__raw_${raws.length - 1}__`;
    }
    return v;
  });
  return (text ?? 'null').replace(/"__raw_(\d+)__"/g, (_, i) => raws[Number(i)]);
}

/** The value for the XML writer: raw leaves become their text (the writer escapes it, nesting is lost — fine). */
function forXml(value: unknown): unknown {
  if (value instanceof Raw) return value.xml.startsWith('<') ? { deep: value.xml } : value.xml;
  if (Array.isArray(value)) return value.map(forXml);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, forXml(v)]));
  return value;
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** encodeURIComponent for any string: a lone surrogate (no UTF-8 for it) goes as the bytes of one, which are not UTF-8. */
const encode = (text: string) => text.split(loneSurrogate).map(encodeURIComponent).join('%ED%A0%80');

// ---- arbitraries -----------------------------------------------------------------------------------

const specialStrings = [
  '', ' ', '0', '-0', '1e309', '-1e309', 'NaN', 'Infinity', '0x10', '1e3', '1.005', '0.1', '00012', '9007199254740993', '99999999999999999999',
  '１２３', '٣', 'true', 'false', 'null', 'undefined', '[]', '{}', "'", '"', '\\', '%', '%25', '%00', '\u0000', '\u0001', '\uD800', '\uFFFF', '😀', 'ё', 'Ёлки',
  'http://127.0.0.1:1/orders.xlsx', 'ftp://example.ru/a.xlsx', '<x>', '&amp;', ']]>', '<!--', '$where', '__proto__', 'constructor', 'toString', ';', '[1,2', 'a=1;', 'x'.repeat(300), 'x'.repeat(10_001),
];
/** Too long for a URL (Node refuses headers over 16 KiB before the server sees them): bodies only. */
const hugeStrings = ['я'.repeat(70_000), 'x'.repeat(1_100_000)];
const specialNumbers = [0, 1, 2, -1, 0.5, 100_000_001, 1e21, -1e21, Number.MAX_SAFE_INTEGER, 2 ** 53 + 2, 5e-324, 1.7976931348623157e308];
const specialRaws = [new Raw('1e309', '1e309'), new Raw('-1e309', '-1e309'), new Raw('-0', '-0'), new Raw('1E400', '1E400'), deepArray(100_000), deepObject(100_000)];

const anyString = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom(...specialStrings));
const leaf = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 2, arbitrary: anyString },
  { weight: 1, arbitrary: fc.constantFrom(...hugeStrings) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(...specialNumbers, ...specialRaws) },
);

type Json = Record<string, any>;
const doc = buildOpenApiDocument(operations);
const components = doc.components.schemas as Record<string, Json>;

/** Values shaped like a JSON Schema of the document, each node sometimes of a wrong type. */
function shaped(schema: Json | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return leaf;
  if (typeof schema.$ref === 'string') return shaped(components[schema.$ref.split('/').pop()!], depth);
  const alternatives = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  let right: fc.Arbitrary<unknown>;
  if ('const' in schema) right = fc.constant(schema.const);
  else if (Array.isArray(schema.enum)) right = fc.constantFrom(...schema.enum);
  else if (alternatives) right = fc.oneof(...alternatives.map((a) => shaped(a, depth + 1)));
  else if (schema.type === 'object' && schema.properties) {
    const props = Object.fromEntries(Object.entries(schema.properties as Record<string, Json>).map(([k, v]) => [k, shaped(v, depth + 1)]));
    right = fc.record(props, { requiredKeys: [] });
  } else if (schema.type === 'object') right = fc.dictionary(anyString, leaf, { maxKeys: 4 });
  else if (schema.type === 'array') right = fc.array(shaped(schema.items, depth + 1), { maxLength: 3 });
  else if (schema.type === 'string') right = anyString;
  else if (schema.type === 'number' || schema.type === 'integer') right = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(...specialNumbers));
  else if (schema.type === 'boolean') right = fc.boolean();
  else right = leaf;
  return fc.oneof({ weight: 4, arbitrary: right }, { weight: 1, arbitrary: leaf });
}

/** Paths to every node of a value. */
function pathsOf(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pathsOf(v, [...at, i])));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...at, k]));
  return out;
}

const DELETE = Symbol('delete');

/** A fresh copy (fast-check hands out the same constant objects again), raw leaves kept as they are. */
const copy = (value: unknown): unknown =>
  value instanceof Raw ? value : Array.isArray(value) ? value.map(copy) : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)])) : value;

/** A valid example with a few nodes replaced, removed or wrongly typed: gets past the schema into the services. */
function mutated(example: unknown): fc.Arbitrary<unknown> {
  const paths = pathsOf(example);
  const replacement = fc.oneof(leaf, fc.constant(DELETE), fc.constant(null), fc.constant([]), fc.constant({}));
  return fc.array(fc.tuple(fc.nat({ max: paths.length - 1 }), replacement), { minLength: 0, maxLength: 3 }).map((changes) => {
    let value: unknown = copy(example);
    for (const [index, replacement] of changes) {
      const next = replacement === DELETE ? DELETE : copy(replacement);
      const path = paths[index];
      if (path.length === 0) {
        value = next === DELETE ? undefined : next;
        continue;
      }
      let parent: any = value;
      for (const key of path.slice(0, -1)) parent = parent?.[key];
      if (parent === null || typeof parent !== 'object') continue;
      const last = path[path.length - 1];
      if (next === DELETE) {
        if (Array.isArray(parent)) parent.splice(Number(last), 1);
        else delete parent[last];
      } else parent[last] = next;
    }
    return value;
  });
}

function exampleBody(op: Operation): unknown {
  if (op.id === 'uploadOrders') return uploadTemplate;
  if (op.id === 'createOrder' || op.id === 'updateOrder') return orderPayload('ROBUST-NEW');
  if (op.id === 'getStatuses') return { orderIds: realOrderIds };
  return op.body?.example;
}

const bodyArb = (op: Operation): fc.Arbitrary<unknown> => {
  const example = exampleBody(op);
  const schema = op.body ? { $ref: `#/components/schemas/${op.body.name}` } : undefined;
  return fc.oneof(
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 3, arbitrary: shaped(schema) },
    { weight: example === undefined ? 0 : 5, arbitrary: example === undefined ? fc.constant(undefined) : mutated(example) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, ...specialRaws, { columnMap: deepObject(100_000) }, { defaultData: deepObject(100_000) }, { orderIds: deepArray(100_000) }) },
  );
};

const rawXml = fc.oneof(
  fc.string().map((s) => `<request>${s}</request>`),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '<request>',
    '<request><order><clientNumber>1</clientNumber></request>',
    `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]><request><x>&d;</x></request>`,
    '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><request><x>&x;</x></request>',
    `<request>${'<a>'.repeat(20_000)}${'</a>'.repeat(20_000)}</request>`,
    '<request><orderIds><item>1</item><item><item>2</item></item></orderIds></request>',
    '<a/><b/>',
    '<request><__proto__><polluted>1</polluted></__proto__></request>',
    '<request><item>1</item></request>',
  ),
);

/** Path segment values: real ids, numbers, junk, percent sequences (some malformed), dates. */
const pathValue = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...[0, 1, 2].map((i) => () => realOrderIds[i])).map((f) => f()) },
  { weight: 2, arbitrary: fc.integer().map(String) },
  { weight: 3, arbitrary: anyString.filter((s) => s.length < 2000).map(encode) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '%E0%A4%A', '%25E0', '%', '%zz', '%2F', '%2e%2e', '..', '%00', '1%20', '0', '-1', '1.0', '1e3', '01', '999999999999999', '9999999999999999', '2026-03-01',
      '2026-02-30', '2026-03-01T10%3A15%3A17%2B03%3A00', '2026-03-01T10:15:17+03:00', '2026-03-01T10:15:17 03:00', '+275760-09-13', '0000-00-00', '9999-12-31T23:59:59Z',
    ),
  },
);

const queryValue = fc.oneof(
  anyString,
  fc.integer().map(String),
  fc.constantFrom('1000', '1001', '5000', '5001', '100', '101', '20000', '20001', '-0', '1.5', '２'),
  fc.array(fc.oneof(fc.constantFrom('city', 'providerKey', 'id', 'key', 'created', 'limits.maxCod', 'name', 'x.y', '', ' '), fc.constantFrom('=', '>', '<', '%', '>=', '==', ';', '[', ']', ',', "'", '"', '\\'), anyString.filter((s) => s.length < 40)), { maxLength: 8 }).map((parts) => parts.join('')),
);

function queryArb(op: Operation) {
  const known = [...(op.params ?? []).filter((p) => p.in === 'query').map((p) => p.name), 'limit', 'offset', 'filter', 'fields', 'orderIds[]', 'orderIds[0]', 'clientNumber', 'from', 'to'];
  return fc.array(fc.tuple(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: anyString.filter((s) => s.length < 50) }), queryValue), { maxLength: 5 });
}

const tokenArb = fc.oneof(
  { weight: 8, arbitrary: fc.constant<string | undefined>('token-company-a') },
  { weight: 1, arbitrary: fc.constantFrom<string | undefined>('Bearer token-company-b', 'token-company-b', undefined, '', 'Bearer', 'bearer  token-company-a ') },
  { weight: 1, arbitrary: anyString.filter((s) => s.length < 200) },
);

interface Attempt {
  path: string;
  query: [string, string][];
  body?: unknown;
  rawXml?: string;
  bodyFormat: 'json' | 'xml';
  accept?: string;
  contentType?: string;
  token?: string;
}

const attemptArb = (op: Operation): fc.Arbitrary<Attempt> =>
  fc.record({
    path: fc.tuple(...(op.path.match(/\{\w+\}/g) ?? []).map(() => pathValue)).map((values) => {
      let i = 0;
      return op.path.replace(/\{\w+\}/g, () => String(values[i++]));
    }),
    prefix: fc.boolean(),
    query: queryArb(op),
    body: op.method === 'GET' || op.method === 'DELETE' ? fc.constant(undefined) : bodyArb(op),
    rawXml: fc.option(rawXml, { freq: 4, nil: undefined }),
    bodyFormat: fc.constantFrom<'json' | 'xml'>('json', 'xml'),
    accept: fc.constantFrom(undefined, 'application/json', 'application/xml', 'text/xml, application/json', '*/*', 'text/html'),
    contentType: fc.constantFrom(undefined, 'default', 'default', 'default', 'application/json; charset=windows-1251', 'text/plain', 'application/soap+xml'),
    token: tokenArb,
  }).map(({ prefix, ...a }) => ({ ...a, path: `${prefix ? '/v1' : ''}${a.path}` }));

// ---- sending and checking ------------------------------------------------------------------------

/** Anything that is not printable ASCII goes percent-encoded; `%` sequences stay as written (malformed ones too). */
const rawUrlPart = (text: string) => text.replace(/[^\x21-\x7e]/gu, (c) => encode(c));

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The request as sent, for the report. */
  sent: string;
  sentHeaders: Record<string, string>;
}

function send(method: string, attempt: Attempt): Promise<Answer> {
  const query = attempt.query.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
  const path = rawUrlPart(attempt.path) + (query ? `?${query}` : '');
  const headers: Record<string, string> = {};
  if (attempt.token !== undefined) headers.authorization = attempt.token.replace(/[^\x20-\x7e]/g, '?');
  if (attempt.accept) headers.accept = attempt.accept;
  let payload: string | undefined;
  if (attempt.body !== undefined || (attempt.rawXml !== undefined && method !== 'GET' && method !== 'DELETE')) {
    if (attempt.bodyFormat === 'xml') {
      payload = attempt.rawXml ?? toXmlDocument(forXml(attempt.body), 'request');
      headers['content-type'] = 'application/xml';
    } else {
      payload = toJsonText(attempt.body);
      headers['content-type'] = 'application/json';
    }
    if (attempt.contentType && attempt.contentType !== 'default') headers['content-type'] = attempt.contentType;
  }
  const sent = `${method} ${path} ${JSON.stringify(headers)} ${payload === undefined ? '' : `body (${payload.length} chars): ${payload.slice(0, 400)}`}`;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8'), sent, sentHeaders: headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** HTTP statuses each code may come with (the general section's table). */
const statusesOfCode = new Map(errorCodes.map((c) => [c.code as string, (c.status.match(/\d{3}/g) ?? []).map(Number)]));

const okSchemas = new Map(operations.map((op) => [op.id, [op.response, ...(op.alternatives ?? [])].map((r) => r.schema) as z.ZodType[]]));

const validTokens = new Set(['token-company-a', 'token-company-b', 'Bearer token-company-b', 'bearer  token-company-a ']);

function check(op: Operation, attempt: Attempt, res: Answer) {
  const fail = (what: string) => {
    throw new Error(`${what}\nrequest: ${res.sent}\nanswer: ${res.status} ${String(res.headers['content-type'])} ${res.text.slice(0, 600)}\nserver log:\n${logged.slice(-3).join('\n')}`);
  };
  if (res.status >= 500) fail('5xx');
  const contentType = String(res.headers['content-type'] ?? '');
  if (res.status === 200 && op.formats.includes('html')) {
    if (!contentType.startsWith('text/html; charset=utf-8')) fail('expected HTML');
    return;
  }
  if (res.status === 200 && op.id === 'getOpenApi') {
    if (!contentType.startsWith('application/json')) fail('the OpenAPI document is always JSON');
    return;
  }
  // Accept first, else the request's Content-Type, else JSON — errors included (not what Node refuses before: 431 is JSON).
  const xml = res.status !== 431 && responseFormat(res.sentHeaders) === 'xml';
  if (!contentType.startsWith(xml ? 'application/xml; charset=utf-8' : 'application/json; charset=utf-8')) fail(`expected ${xml ? 'XML' : 'JSON'}`);
  let body: unknown;
  try {
    body = xml ? parseXmlBody(res.text) : JSON.parse(res.text);
  } catch {
    fail('the body does not parse');
  }
  if (xml && !/^<\?xml version="1.0" encoding="UTF-8"\?>\n<response[>/]/.test(res.text)) fail('XML without the response root');
  const authenticated = op.public || validTokens.has(attempt.token ?? '');

  if (res.status === 200) {
    if (!authenticated) fail('answered without a valid token');
    // JSON answers must match the documented schema (projections with fields= are partial by design).
    if (!xml && !attempt.query.some(([k]) => k === 'fields') && !okSchemas.get(op.id)!.some((s) => s.safeParse(body).success)) fail('the answer does not match the document');
    return;
  }
  if (res.status < 400) fail('unexpected status');
  // In XML an empty list is an empty element.
  const normalized = xml && body !== null && typeof body === 'object' && (body as Json).errors === '' ? { ...(body as Json), errors: [] } : body;
  const parsed = errorBodySchema.safeParse(normalized);
  if (!parsed.success) return fail("not the interface's error body");
  const allowed = statusesOfCode.get(parsed.data.code);
  if (!allowed) fail(`unknown error code ${parsed.data.code}`);
  if (!allowed!.includes(res.status)) fail(`code ${parsed.data.code} with HTTP ${res.status}`);
  // Only routing comes before the token: no such path (404 040016), wrong method (405), malformed URL (400 040000).
  if (!authenticated && !['401 040101', '404 040016', '405 040000', '400 040000', '431 040000'].includes(`${res.status} ${parsed.data.code}`)) fail('got past authentication without a valid token');
}

/** Inputs random runs reach too rarely, tried first on every operation: each top-level field deep, huge or out of range. */
function nastyAttempts(op: Operation): Attempt[] {
  const fields = op.body ? Object.keys((components[op.body.name].properties ?? {}) as Json) : [];
  const everywhere = (value: unknown) => Object.fromEntries(fields.map((f) => [f, value]));
  const path = op.path.replace(/\{\w+\}/g, '%25E0');
  const query = (op.params ?? []).filter((p) => p.in === 'query').map((p): [string, string] => [p.name, 'x'.repeat(10_001)]);
  const base = { path: op.path.replace(/\{\w+\}/g, () => realOrderIds[0]), query, bodyFormat: 'json' as const, token: 'token-company-a' };
  const bodies = op.body ? [deepObject(100_000), deepArray(100_000), everywhere(deepObject(20_000)), everywhere(deepArray(20_000)), everywhere('я'.repeat(70_000)), everywhere(new Raw('1e309', '1e309')), everywhere(new Raw('-0', '-0'))] : [undefined];
  return [
    ...bodies.map((body) => ({ ...base, body })),
    ...bodies.map((body) => ({ ...base, body, bodyFormat: 'xml' as const, accept: 'application/xml' })),
    { ...base, path, query: [] },
  ];
}

describe('robustness: random input never gets a 5xx, and always the documented answer or the error body', () => {
  it('covers every documented operation', () => {
    expect(operations.length).toBeGreaterThanOrEqual(28);
  });

  for (const op of operations) {
    it(`${op.method} ${op.path}`, async () => {
      await fc.assert(
        fc.asyncProperty(attemptArb(op), async (attempt) => {
          check(op, attempt, await send(op.method, attempt));
        }),
        { seed, numRuns: runsOf[op.id] ?? runsPerOperation, endOnFailure: true, examples: nastyAttempts(op).map((a) => [a]) },
      );
    }, 120_000);
  }

  it('left nothing in the server log', () => {
    expect(logged).toEqual([]);
  });
});

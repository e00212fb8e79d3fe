import { z } from 'zod';
import { allRoutes, operations } from '../../electron/core/api/routes';
import { buildOpenApiDocument } from '../../electron/core/api/openapi/document';
import { ErrorCode } from '../../shared/errors';
import { DEFAULT_BODY_LIMIT, mibOf, UPLOAD_BODY_LIMIT } from '../../electron/core/api/body-limits';
import { MAX_DOWNLOAD_REDIRECTS } from '../../electron/core/import/download';
import { defaultImportOptions } from '../../electron/core/import/import-options';
import { MAX_INPUT_DEPTH } from '../../electron/core/validation';
import { PARCEL_LIMITS } from '../../shared/schemas/primitives';
import { ordersWorkbook, sampleOrder, uploadBody } from '../fixtures/xlsx/orders-workbook';
import { orderPayload } from '../helpers/payloads';
import { startTestServer, type TestServer } from '../helpers/test-server';

// The reference of the local interface: GET /openapi.json and GET /docs, generated from the documented routes.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ imports: { registrationWaitMs: 0 } });
});
afterAll(async () => {
  await server.close();
});

const doc = buildOpenApiDocument(operations);
type Json = Record<string, any>;

/** `/orders/:orderId/cancel` as OpenAPI writes it. */
const openApiPath = (pattern: string) => pattern.replace(/:(\w+)/g, '{$1}');

describe('the document covers the routes', () => {
  it('every interface route has an operation, and every operation a route', () => {
    const isReference = (path: string) => path === '/openapi.json' || path === '/docs';
    const routes = allRoutes(server.app)
      .filter((r) => !r.pattern.startsWith('/app/'))
      .map((r) => `${r.method} ${openApiPath(r.pattern)}`);
    const documented = operations.map((o) => `${o.method} ${o.path}`);
    expect(routes.filter((r) => !isReference(r.split(' ')[1])).sort()).toEqual(documented.filter((d) => !isReference(d.split(' ')[1])).sort());
    // the reference itself is served and documented too
    expect(routes.filter((r) => isReference(r.split(' ')[1])).sort()).toEqual(['GET /docs', 'GET /openapi.json']);
  });

  it('public routes are exactly the documented public operations', () => {
    const publicRoutes = allRoutes(server.app).filter((r) => r.public).map((r) => `${r.method} ${openApiPath(r.pattern)}`);
    expect(publicRoutes.sort()).toEqual(operations.filter((o) => o.public).map((o) => `${o.method} ${o.path}`).sort());
  });
});

describe('the limits (#12 item 1): each named constant is in the reference with its value', () => {
  const texts: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') texts.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  collect(doc);
  const reference = texts.join('\n');
  const count = (n: number) => n.toLocaleString('en');
  const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;
  const o = defaultImportOptions;
  // name in the reference → its value as the reference writes it, read from the constant the code enforces
  const limits: [string, string][] = [
    ['DEFAULT_BODY_LIMIT', `${mibOf(DEFAULT_BODY_LIMIT)} MiB`],
    ['UPLOAD_BODY_LIMIT', `${mibOf(UPLOAD_BODY_LIMIT)} MiB`],
    ['MAX_INPUT_DEPTH', `${MAX_INPUT_DEPTH} levels`],
    ['PARCEL_LIMITS', `quantities at most ${count(PARCEL_LIMITS.maxQuantity)}`],
    ['maxFileBytes', mb(o.maxFileBytes)],
    ['maxUncompressedBytes', mb(o.maxUncompressedBytes)],
    ['maxEntries', `${count(o.maxEntries)} parts`],
    ['maxDataRows', `${count(o.maxDataRows)} data rows`],
    ['readTimeoutMs', `${o.readTimeoutMs / 60_000} min`],
    ['MAX_DOWNLOAD_REDIRECTS', `${MAX_DOWNLOAD_REDIRECTS} redirects`],
    ['downloadTimeoutMs', `${o.downloadTimeoutMs / 1000} s`],
    ['maxKeptSourceBytesPerCompany', `${mb(o.maxKeptSourceBytesPerCompany)} per company`],
  ];
  it.each(limits)('%s: "%s" right before its name', (name, value) => {
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // the value, then a few words, then the constant's name in parentheses: "at most 32 levels (MAX_INPUT_DEPTH)"
    const found = new RegExp(`(?<![\\d,.])${escape(value)}[^()\\n]{0,40}\\(${name}\\b`).test(reference);
    expect(found, `"${value} … (${name}" in the reference`).toBe(true);
  });
  it('PARCEL_LIMITS: its weight and size bounds in the same sentence', () => {
    expect(reference).toContain(`grams (at most ${count(PARCEL_LIMITS.maxGrams)}), sizes in centimetres (at most ${count(PARCEL_LIMITS.maxCentimetres)})`);
  });
});

// ---- structure: the parts of OpenAPI 3.1 the document uses -------------------------------------

const description = z.string().min(1);
const jsonSchema: z.ZodType = z.lazy(() =>
  z
    .looseObject({
      $ref: z.string().regex(/^#\/components\/schemas\/\w+$/).optional(),
      type: z.union([z.enum(['string', 'number', 'integer', 'boolean', 'null', 'array', 'object']), z.array(z.enum(['string', 'number', 'integer', 'boolean', 'null', 'array', 'object']))]).optional(),
      properties: z.record(z.string(), jsonSchema).optional(),
      required: z.array(z.string()).optional(),
      items: jsonSchema.optional(),
      anyOf: z.array(jsonSchema).optional(),
      oneOf: z.array(jsonSchema).optional(),
      additionalProperties: z.union([z.boolean(), jsonSchema]).optional(),
      description: z.string().optional(),
      xml: z.strictObject({ name: z.string().optional(), wrapped: z.boolean().optional() }).optional(),
    })
    .refine((s) => !('$schema' in s) && !('$id' in s), 'no $schema / $id inside the document')
    .refine((s) => !s.required || !s.properties || s.required.every((k: string) => k in (s.properties ?? {})), 'required names a property that does not exist'),
);
const mediaType = z.strictObject({ schema: jsonSchema, example: z.unknown().optional() });
const content = z.partialRecord(z.enum(['application/json', 'application/xml', 'text/html', 'application/pdf', 'text/plain']), mediaType);
const parameter = z.strictObject({
  name: z.string().min(1),
  in: z.enum(['path', 'query', 'header']),
  required: z.boolean(),
  description,
  schema: jsonSchema,
  example: z.unknown().optional(),
  style: z.literal('form').optional(),
  explode: z.boolean().optional(),
});
const response = z.strictObject({ description, content: content.optional() });
const operation = z.strictObject({
  operationId: z.string().regex(/^[a-zA-Z]\w*$/),
  tags: z.array(z.string()).min(1),
  summary: z.string().min(1),
  'x-summary-ru': z.string().min(1),
  description,
  parameters: z.array(parameter).optional(),
  requestBody: z.strictObject({ required: z.boolean(), description, content }).optional(),
  responses: z.record(z.string().regex(/^([1-5]\d\d|default)$/), response).refine((r) => '200' in r, 'a 200 answer'),
  security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
});
const openApi31 = z.strictObject({
  openapi: z.string().regex(/^3\.1\.\d+$/),
  info: z.strictObject({ title: z.string().min(1), version: z.string().min(1), description }),
  servers: z.array(z.strictObject({ url: z.string(), description: z.string(), variables: z.record(z.string(), z.strictObject({ default: z.string() })).optional() })),
  tags: z.array(z.strictObject({ name: z.string(), description })),
  security: z.array(z.record(z.string(), z.array(z.string()))),
  paths: z.record(z.string().regex(/^\/[\w/{}.]*$/), z.strictObject({ get: operation.optional(), post: operation.optional(), put: operation.optional(), delete: operation.optional() })),
  components: z.strictObject({
    schemas: z.record(z.string().regex(/^\w+$/), jsonSchema),
    securitySchemes: z.record(z.string(), z.strictObject({ type: z.literal('apiKey'), in: z.literal('header'), name: z.string(), description })),
  }),
});

function* walk(node: unknown, at = '#'): Generator<[string, Json]> {
  if (node === null || typeof node !== 'object') return;
  yield [at, node as Json];
  for (const [k, v] of Object.entries(node)) yield* walk(v, `${at}/${k}`);
}

describe('the document is OpenAPI 3.1', () => {
  it('has the shape of an OpenAPI 3.1 document', () => {
    const parsed = openApi31.safeParse(doc);
    expect(parsed.success, parsed.success ? '' : z.prettifyError(parsed.error)).toBe(true);
  });

  it('every $ref points to a component, and every component is used', () => {
    const refs = [...walk(doc)].filter(([, n]) => typeof n.$ref === 'string').map(([, n]) => n.$ref as string);
    const names = Object.keys(doc.components.schemas);
    for (const ref of refs) expect(names, ref).toContain(ref.replace('#/components/schemas/', ''));
    const used = new Set(refs.map((r) => r.replace('#/components/schemas/', '')));
    expect(names.filter((n) => !used.has(n))).toEqual([]);
  });

  it('operationIds are unique, tags are declared, path parameters are declared and required', () => {
    const ids = new Set<string>();
    const tags = new Set(doc.tags.map((t) => t.name));
    for (const [path, item] of Object.entries(doc.paths)) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      for (const op of Object.values(item) as Json[]) {
        expect(ids.has(op.operationId), op.operationId).toBe(false);
        ids.add(op.operationId);
        for (const tag of op.tags) expect(tags.has(tag), tag).toBe(true);
        const pathParams = (op.parameters ?? []).filter((p: Json) => p.in === 'path');
        expect(pathParams.map((p: Json) => p.name).sort(), `${op.operationId}`).toEqual(inPath);
        for (const p of pathParams) expect(p.required).toBe(true);
        const names = (op.parameters ?? []).map((p: Json) => p.name);
        expect(new Set(names).size, `${op.operationId} repeats a parameter`).toBe(names.length);
      }
    }
  });

  it('says the security scheme: the raw token in Authorization; the reference itself is public', () => {
    expect(doc.components.securitySchemes.token).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    expect(doc.security).toEqual([{ token: [] }]);
    expect((doc.paths['/openapi.json'] as Json).get.security).toEqual([]);
    expect((doc.paths['/docs'] as Json).get.security).toEqual([]);
    expect((doc.paths['/orders'] as Json).post.security).toBeUndefined();
  });

  it('every error row names a known code; every token operation documents 401 040101 and the error body', () => {
    const codes = new Set<string>(Object.values(ErrorCode));
    for (const op of operations) {
      for (const row of op.errors) expect(codes.has(row.code), `${op.id} ${row.code}`).toBe(true);
      if (!op.public) expect(op.errors).toContainEqual(expect.objectContaining({ status: 401, code: ErrorCode.unauthorized }));
      const responses = (doc.paths[op.path] as Json)[op.method.toLowerCase()].responses as Json;
      for (const row of op.errors) expect(responses[String(row.status)].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
    }
  });

  it('documents JSON and XML: item lists, the response root, and both path forms', () => {
    const points = doc.components.schemas.PointsPage as Json;
    expect(points.properties.rows).toMatchObject({ type: 'array', xml: { wrapped: true }, items: { xml: { name: 'item' } } });
    const create = (doc.paths['/orders'] as Json).post;
    expect(create.requestBody.content['application/xml'].schema.xml).toEqual({ name: 'request' });
    expect(create.responses['200'].content['application/xml'].schema.xml).toEqual({ name: 'response' });
    expect(doc.servers.map((s) => s.url)).toEqual(['http://127.0.0.1:{port}/v1', 'http://127.0.0.1:{port}']);
    expect(doc.info.description).toMatch(/Every path is served both with and without the `\/v1` prefix/);
  });

  it('types orderId as the interface document does: text on create and cancel, a number in upload results', () => {
    const schemas = doc.components.schemas as Json;
    expect(schemas.OrderCreated.properties.orderId.type).toBe('string');
    expect(schemas.OrderCanceled.properties.orderId.type).toBe('string');
    expect(schemas.UploadCreatedItem.properties.orderId.type).toBe('number');
    expect(schemas.OrderCreated.required).toEqual(['orderId', 'created']);
  });

  it('requests are described as the server takes them: numbers as text too, optional fields not required', () => {
    const create = doc.components.schemas.OrderCreate as Json;
    expect(create.required).toEqual(['order', 'cost', 'sender', 'recipient', 'places']);
    expect(create.properties.order.required).toEqual(['clientNumber', 'providerKey', 'deliveryType', 'pickupType', 'tariffId', 'weight']);
    expect(create.properties.order.properties.weight.anyOf).toEqual([{ type: 'number' }, expect.objectContaining({ type: 'string' })]);
    const detail = doc.components.schemas.OrderDetail as Json;
    expect(detail.properties.order.required).not.toContain('comment'); // optional text stays optional in the answer
    expect(detail.properties.order.properties.weight).toMatchObject({ type: 'number' });
  });

  it('its examples are valid for their own schemas', () => {
    for (const op of operations) {
      if (op.body?.example !== undefined) expect(op.body.schema.safeParse(op.body.example).error, `${op.id} body`).toBeUndefined();
      if (op.response.example !== undefined) expect(op.response.schema.safeParse(op.response.example).error, `${op.id} answer`).toBeUndefined();
    }
  });
});

describe('GET /openapi.json', () => {
  it('is public and always JSON, with and without /v1', async () => {
    for (const path of ['/openapi.json', '/v1/openapi.json']) {
      const res = await server.call('GET', path, { token: null, headers: { Accept: 'application/xml' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.json).toEqual(JSON.parse(JSON.stringify(doc)));
    }
  });
});

describe('GET /docs', () => {
  it('is a public, self-contained HTML page under the server\'s CSP: no scripts, nothing from elsewhere', async () => {
    const res = await server.call('GET', '/docs', { token: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8/);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(res.text).not.toMatch(/<script|javascript:|\son\w+=/i);
    expect(res.text).not.toMatch(/(src|href)="(https?:)?\/\//i);
    expect((await server.call('GET', '/v1/docs', { token: null })).status).toBe(200);
  });

  it('shows every operation with its summaries, parameters, errors, and every schema', async () => {
    const html = (await server.call('GET', '/docs', { token: null })).text;
    for (const op of operations) {
      expect(html).toContain(`id="${op.id}"`);
      expect(html).toContain(`>${op.path.replace(/&/g, '&amp;')}</code>`);
      expect(html).toContain(op.summaryRu);
      for (const e of op.errors) expect(html).toContain(`<code>${e.code}</code>`);
    }
    for (const name of Object.keys(doc.components.schemas)) expect(html).toContain(`id="schema-${name}"`);
    // anchors point somewhere
    const ids = new Set([...html.matchAll(/id="([^"]+)"/g)].map((m) => m[1]));
    for (const [, target] of html.matchAll(/href="#([^"]+)"/g)) expect(ids.has(target), target).toBe(true);
  });
});

// ---- the server answers what the document says ---------------------------------------------------

describe('answers match the documented schemas', () => {
  it('one call per operation: 200 with a body the operation\'s answer schema accepts', async () => {
    const created = await server.call('POST', '/orders', { body: orderPayload('DOC-1') });
    await server.app.outbox.drain(); // registered, so it has a label and can go on an act
    const labels = await server.call('POST', '/orders/labels', { body: { orderIds: [created.json.orderId] } });
    const second = await server.call('POST', '/orders', { body: orderPayload('DOC-2') });
    const third = await server.call('POST', '/orders', { body: orderPayload('DOC-3') });
    const id = created.json.orderId;
    const { buffer, columnMap } = await ordersWorkbook([sampleOrder('DOC-U1')], { itemsNewRow: true });
    await server.app.services.apiLogins.set(server.companyA, { login: 'doc-shop', password: 'doc-password-1' });
    const asyncUpload = await server.call('POST', '/orders/upload', { body: uploadBody(buffer, columnMap, { itemsNewRow: true, mode: 'async' }) });
    const courierCall = await server.call('POST', '/courierCall', {
      body: { providerKey: 'sandbox-express', date: '2026-03-02', timeStart: '10:00', timeEnd: '14:00', weight: 1000, city: 'Москва', contactName: 'Иван', phone: '+79160000000' },
    });

    const webhook = await server.call('POST', '/webhooks', { body: { url: 'https://shop.example.ru/shipdesk/doc', type: 'ORDER_STATUS' } });

    const calls: Record<string, () => Promise<Awaited<ReturnType<TestServer['call']>>>> = {
      listPoints: () => server.call('GET', '/v1/lists/points?limit=5&filter=city=Москва'),
      listTariffs: () => server.call('GET', '/v1/lists/tariffs'),
      listProviders: () => server.call('GET', '/v1/lists/providers'),
      listStatuses: () => server.call('GET', '/v1/lists/statuses'),
      listServices: () => server.call('GET', '/v1/lists/services'),
      listPickupTypes: () => server.call('GET', '/v1/lists/pickupTypes'),
      listDeliveryTypes: () => server.call('GET', '/v1/lists/deliveryTypes'),
      listPaymentMethods: () => server.call('GET', '/v1/lists/paymentMethods'),
      listPointTypes: () => server.call('GET', '/v1/lists/pointTypes'),
      listOperationTypes: () => server.call('GET', '/v1/lists/operationTypes'),
      createOrderSync: () => server.call('POST', '/orders/sync', { body: orderPayload('DOC-S') }),
      validateOrder: () => server.call('POST', '/orders/validate', { body: orderPayload('DOC-V') }),
      resendOrder: () => server.call('POST', `/orders/${id}/resend`, { body: { orderId: id } }),
      listConnections: () => server.call('GET', '/connections?filter={"providerKey":"sandbox-express"}'),
      createConnection: () => server.call('POST', '/connections', { body: { providerKey: 'sandbox-express', name: 'Sandbox', isUseBaseConnect: 1 } }),
      login: () => server.call('POST', '/login', { token: null, body: { login: 'doc-shop', password: 'doc-password-1' } }),
      createOrder: async () => created,
      getOrder: () => server.call('GET', `/orders/${id}`),
      updateOrder: () => server.call('PUT', `/orders/${second.json.orderId}`, { body: orderPayload('DOC-2', (o) => (o.recipient.office = '7')) }),
      deleteOrder: () => server.call('DELETE', `/orders/${third.json.orderId}`),
      cancelOrder: () => server.call('GET', `/orders/${second.json.orderId}/cancel`),
      getOrderStatus: () => server.call('GET', `/orders/${id}/status`),
      getStatusByClientNumber: () => server.call('GET', '/orders/status?clientNumber=DOC-1'),
      getStatusHistoryByClientNumber: () => server.call('GET', '/orders/status/history?clientNumber=DOC-1'),
      getStatuses: () => server.call('POST', '/orders/statuses', { body: { orderIds: [id, '999999'] } }),
      getStatusesChangedSince: () => server.call('GET', '/orders/statuses/date/2000-01-01'),
      getStatusHistorySince: () => server.call('GET', '/orders/statuses/history/date/2000-01-01'),
      getStatusHistoryInterval: () => server.call('GET', '/orders/statuses/interval?from=2000-01-01'),
      getStatusHistory: () => server.call('GET', `/orders/${id}/statusHistory?orderIds=${second.json.orderId}`),
      calculate: () => server.call('POST', '/calculator', { body: { from: { city: 'Москва' }, to: { city: 'Казань' }, places: [{ weight: 1000 }] } }),
      calculateIntervals: () => server.call('POST', '/calculator/intervals', { body: { to: { city: 'Москва' } } }),
      uploadOrders: async () => asyncUpload,
      getUpload: () => server.call('GET', `/orders/upload/${asyncUpload.json.uploadId}`),
      createCourierCall: async () => courierCall,
      cancelCourierCall: () => server.call('POST', `/courierCall/${courierCall.json.id}/cancel`),
      getOpenApi: () => server.call('GET', '/openapi.json', { token: null }),
      getDocs: () => server.call('GET', '/docs', { token: null }),
      orderLabels: async () => labels,
      orderWaybills: () => server.call('POST', '/orders/waybills', { body: { orderIds: [id] } }),
      printedFile: () => server.call('GET', new URL(labels.json.url).pathname, { token: null }),
      createWebhook: () => server.call('POST', '/webhooks', { body: { url: 'https://shop.example.ru/shipdesk/status', type: 'ORDER_STATUS' } }),
      listWebhooks: () => server.call('GET', '/webhooks'),
      webhookAttempts: () => server.call('GET', `/webhooks/${webhook.json.uuid}/attempts`),
      deleteWebhook: () => server.call('DELETE', `/webhooks/${webhook.json.uuid}`),
    };
    expect(Object.keys(calls).sort()).toEqual(operations.map((o) => o.id).sort());

    for (const op of operations) {
      const res = await calls[op.id]();
      expect(res.status, `${op.id}: ${res.text.slice(0, 300)}`).toBe(200);
      const body = op.formats.includes('html') || op.formats.includes('file') ? res.text : res.json;
      const schemas = [op.response, ...(op.alternatives ?? [])].map((r) => r.schema);
      const errors = schemas.map((s) => s.safeParse(body).error);
      expect(errors.some((e) => e === undefined), `${op.id}: ${errors.map((e) => e && z.prettifyError(e)).join('\n')}`).toBe(true);
      if (!op.formats.includes('html') && !op.formats.includes('file')) expect(documentMismatches(answerSchema(op.method, op.path), body), op.id).toEqual([]);
    }
  });

  it('the document\'s own schemas accept a trimmed list and an async upload answer', async () => {
    const trimmed = await server.call('GET', '/v1/lists/points?limit=3&fields=id,city');
    expect(Object.keys(trimmed.json.rows[0])).toEqual(['id', 'city']);
    expect(documentMismatches(answerSchema('GET', '/lists/points'), trimmed.json)).toEqual([]);
    const tariffs = await server.call('GET', '/v1/lists/tariffs?fields=id');
    expect(documentMismatches(answerSchema('GET', '/lists/tariffs'), tariffs.json)).toEqual([]);

    const { buffer, columnMap } = await ordersWorkbook([sampleOrder('DOC-A1')], { itemsNewRow: true });
    const upload = await server.call('POST', '/orders/upload', { body: uploadBody(buffer, columnMap, { itemsNewRow: true, mode: 'async' }) });
    expect(upload.json.status).toBe('queued');
    expect(documentMismatches(answerSchema('POST', '/orders/upload'), upload.json)).toEqual([]);
    // The checker itself finds what is missing.
    expect(documentMismatches(answerSchema('GET', '/orders/{orderId}'), { order: {} })).not.toEqual([]);
  });
});

/** The JSON 200 answer schema of an operation in the generated document. */
const answerSchema = (method: string, path: string): Json => (doc.paths as Json)[path][method.toLowerCase()].responses['200'].content['application/json'].schema;

/**
 * A small JSON Schema check (no validator is a dependency): $ref, type object / array, `required`, and
 * anyOf / oneOf (oneOf: exactly one alternative fits), which is where the document and our answers
 * parted ways (a trimmed list record, the async upload answer).
 */
function documentMismatches(schema: Json, value: unknown, at = ''): string[] {
  if (typeof schema.$ref === 'string') return documentMismatches((doc.components.schemas as Json)[schema.$ref.split('/').pop()!], value, at);
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (!Array.isArray(schema[key])) continue;
    const fits = (schema[key] as Json[]).filter((alt) => documentMismatches(alt, value, at).length === 0).length;
    if (key === 'anyOf' ? fits === 0 : fits !== 1) return [`${at || '/'}: ${fits} of the ${key} alternatives fit`];
  }
  const types = ([] as unknown[]).concat(schema.type ?? []);
  if (value === null) return types.length && !types.includes('null') ? [`${at || '/'}: null`] : [];
  if (Array.isArray(value)) return schema.items ? value.flatMap((v, i) => documentMismatches(schema.items, v, `${at}/${i}`)) : [];
  if (typeof value !== 'object') return [];
  const object = value as Record<string, unknown>;
  const missing = ((schema.required ?? []) as string[]).filter((k) => !(k in object)).map((k) => `${at}/${k}: required`);
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  return [...missing, ...Object.entries(object).flatMap(([k, v]) => (properties[k] ? documentMismatches(properties[k], v, `${at}/${k}`) : []))];
}

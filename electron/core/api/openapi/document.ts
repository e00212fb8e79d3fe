import { z } from 'zod';
import { pageMetaSchema, pointSchema, providerRecordSchema, providerServiceSchema, statusRecordSchema, tariffSchema, typeRecordSchema } from '../../../../shared/schemas/lists';
import { orderInfoSchema, orderStatusResultSchema, orderStatusSchema } from '../../../../shared/schemas/statuses';
import { uploadCreatedItemSchema, uploadFailedItemSchema } from '../../../../shared/schemas/upload';
import { fieldNotes } from './field-notes';
import { errorCodes, errorExample, generalSections, type Operation, type Tag } from './operations';
import { errorBodySchema } from './schemas';

/**
 * Builds the OpenAPI 3.1 document from the operations and the zod schemas they name. Request bodies are
 * described as the server takes them (z.toJSONSchema, io "input": numbers may be text, defaults optional),
 * answers as it writes them (io "output"); both are components, referenced by the operations.
 */

type Json = Record<string, unknown>;

/** Records that get a component of their own, so the envelopes and lists reference them. */
const recordComponents: Record<string, z.ZodType> = {
  ErrorBody: errorBodySchema,
  Point: pointSchema,
  Tariff: tariffSchema,
  ProviderRecord: providerRecordSchema,
  StatusRecord: statusRecordSchema,
  TypeRecord: typeRecordSchema,
  ProviderService: providerServiceSchema,
  PageMeta: pageMetaSchema,
  OrderInfo: orderInfoSchema,
  OrderStatus: orderStatusSchema,
  OrderStatusResult: orderStatusResultSchema,
  UploadCreatedItem: uploadCreatedItemSchema,
  UploadFailedItem: uploadFailedItemSchema,
};

const tagDescriptions: Record<Tag, string> = {
  Lists: 'Reference lists: pickup points, tariffs, delivery services, statuses, additional services and the small numbered lists.',
  Orders: 'Create, read, change, cancel and delete orders.',
  Statuses: 'Current statuses and status histories, one order or many.',
  Calculator: 'Cost, term and delivery intervals.',
  Upload: 'Orders from an xlsx spreadsheet.',
  Integration: 'What existing integrations of the aggregator call beyond the interface document: login, connections, webhooks.',
  Reference: 'This reference itself (no token needed).',
};

const componentRef = (name: string) => `#/components/schemas/${name}`;

/** Records of the lists that take `fields=`: a trimmed record has only the fields asked for, so none is required. */
const trimmableRecords = ['Point', 'Tariff', 'ProviderRecord', 'StatusRecord', 'ProviderService', 'TypeRecord'];
const trimmableNote = 'Every field is present unless the list was asked for some with `fields=`: then only those.';

const shapeOf = (schema: unknown): Record<string, z.ZodType> | undefined => {
  const def = (schema as { _zod?: { def?: { type?: string; shape?: Record<string, z.ZodType> } } })._zod?.def;
  return def?.type === 'object' ? def.shape : undefined;
};

/** Whether a property may be left out: in a request, when undefined passes; in an answer, when it may come out undefined. */
function optionalProperty(schema: z.ZodType, io: 'input' | 'output'): boolean {
  const parsed = schema.safeParse(undefined);
  return io === 'input' ? parsed.success : parsed.success && parsed.data === undefined;
}

const safeIntBound = (v: unknown) => v === Number.MAX_SAFE_INTEGER || v === Number.MIN_SAFE_INTEGER;

/** The JSON Schema of a zod schema as requests (input) or answers (output) carry it. */
function jsonSchemaOptions(io: 'input' | 'output'): z.core.ToJSONSchemaParams {
  const options: z.core.ToJSONSchemaParams = {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    override(ctx) {
      const json = ctx.jsonSchema as Json;
      const def = (ctx.zodSchema as unknown as { _zod: { def: { type: string; in?: z.ZodType; out?: { _zod: { def: { type: string } } } } } })._zod.def;
      // An answer's `x.transform(f)` has no JSON Schema; what is written before f is the closest truth (text, dates, codes).
      if (io === 'output' && def.type === 'pipe' && def.out?._zod.def.type === 'transform' && def.in) {
        const inner = z.toJSONSchema(def.in, options) as Json;
        for (const key of Object.keys(json)) delete json[key];
        Object.assign(json, inner);
        delete json.$schema;
      }
      const shape = shapeOf(ctx.zodSchema);
      if (shape) {
        const required = Object.keys(shape).filter((key) => !optionalProperty(shape[key], io));
        if (required.length) json.required = required;
        else delete json.required;
        // Answers may grow new fields; clients should ignore the ones they do not know.
        if (io === 'output') delete json.additionalProperties;
      }
      if (safeIntBound(json.minimum)) delete json.minimum;
      if (safeIntBound(json.maximum)) delete json.maximum;
    },
  };
  return options;
}

/** The JSON Schema of one parameter value. */
const parameterSchema = (schema: z.ZodType): Json => {
  const json = z.toJSONSchema(schema, jsonSchemaOptions('output')) as Json;
  delete json.$schema;
  return json;
};

/** Walks a JSON Schema: every array gets the XML form of the interface (wrapped, entries named item). */
function annotateXml(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(annotateXml);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const json = node as Json;
  if (json.type === 'array' || (Array.isArray(json.type) && json.type.includes('array'))) {
    json.xml = { wrapped: true };
    if (json.items && typeof json.items === 'object') (json.items as Json).xml = { name: 'item' };
  }
  for (const [key, value] of Object.entries(json)) if (key !== 'xml') annotateXml(value);
}

/** Puts the notes of field-notes.ts on the properties they name (dotted paths through objects and arrays). */
function applyNotes(name: string, schema: Json, components: Record<string, Json>) {
  const notes = fieldNotes[name];
  if (!notes) return;
  for (const [path, note] of Object.entries(notes)) {
    if (path === '') {
      schema.description = note;
      continue;
    }
    let node: Json | undefined = schema;
    for (const part of path.split('.')) {
      node = resolve(node, components);
      if (node?.type === 'array' || (node && Array.isArray(node.type) && node.type.includes('array'))) node = resolve(node.items as Json, components);
      const props = node?.properties as Record<string, Json> | undefined;
      node = props?.[part];
    }
    if (!node) throw new Error(`field-notes: ${name}.${path} is not a field of the schema`);
    node.description = note;
  }
}

/** A schema behind a $ref (a component), or the schema itself; `anyOf` of object and null gives the object. */
function resolve(node: Json | undefined, components: Record<string, Json>): Json | undefined {
  if (!node) return undefined;
  if (typeof node.$ref === 'string') return components[node.$ref.replace('#/components/schemas/', '')];
  if (Array.isArray(node.anyOf)) {
    const object = (node.anyOf as Json[]).find((n) => n.type === 'object' || n.$ref);
    if (object) return resolve(object, components);
  }
  return node;
}

/** Collects named schemas per direction; one name, one schema. */
function collect(operations: Operation[]) {
  const input = new Map<string, z.ZodType>();
  const output = new Map<string, z.ZodType>(Object.entries(recordComponents));
  const add = (map: Map<string, z.ZodType>, name: string, schema: z.ZodType) => {
    const known = map.get(name) ?? (map === input ? output : input).get(name);
    if (known && known !== schema) throw new Error(`openapi: two different schemas are named ${name}`);
    map.set(name, schema);
  };
  for (const op of operations) {
    if (op.body) add(input, op.body.name, op.body.schema);
    for (const r of [op.response, ...(op.alternatives ?? [])]) add(output, r.name, r.schema);
  }
  return { input, output };
}

function convert(named: Map<string, z.ZodType>, io: 'input' | 'output'): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of named) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { ...jsonSchemaOptions(io), uri: componentRef }) as { schemas: Record<string, Json> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return schemas;
}

const mediaTypes = (op: Operation, schema: Json, example?: unknown, root: 'request' | 'response' = 'response') => {
  const content: Json = {};
  if (op.formats.includes('json')) content['application/json'] = { schema, ...(example !== undefined ? { example } : {}) };
  if (op.formats.includes('xml')) content['application/xml'] = { schema: { ...schema, xml: { name: root } } };
  if (op.formats.includes('html')) content['text/html'] = { schema };
  if (op.formats.includes('file')) {
    content['application/pdf'] = { schema };
    content['text/plain'] = { schema };
  }
  return content;
};

const errorContent = (op: Operation) =>
  mediaTypes({ ...op, formats: op.formats.includes('html') || op.formats.includes('file') ? ['json'] : op.formats }, { $ref: componentRef('ErrorBody') });

function operationObject(op: Operation) {
  const responses: Json = {};
  // anyOf, not oneOf: answers may carry fields they do not describe, so an async upload's state also
  // fits the sync answer's shape; the descriptions say which mode gives which.
  const ok = op.alternatives?.length
    ? { anyOf: [op.response, ...op.alternatives].map((r) => ({ $ref: componentRef(r.name) })) }
    : { $ref: componentRef(op.response.name) };
  const okDescription = [op.response, ...(op.alternatives ?? [])].map((r) => r.description).join(' ');
  responses['200'] = { description: okDescription, content: mediaTypes(op, ok, op.response.example) };
  const byStatus = new Map<number, string[]>();
  for (const row of op.errors) byStatus.set(row.status, [...(byStatus.get(row.status) ?? []), `\`${row.code}\`: ${row.when}`]);
  for (const [status, lines] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = { description: lines.join('\n\n'), content: errorContent(op) };
  }
  responses.default = { description: 'Any other error (see "Errors"): 404 040016, 405, 500 050001…', content: errorContent(op) };

  const parameters = (op.params ?? []).map((p) => ({
    name: p.name,
    in: p.in,
    required: p.in === 'path' ? true : !!p.required,
    description: p.description,
    schema: parameterSchema(p.schema),
    ...(p.example !== undefined ? { example: p.example } : {}),
    ...(p.name === 'orderIds' ? { style: 'form', explode: true } : {}),
  }));

  return {
    operationId: op.id,
    tags: [op.tag],
    summary: op.summary,
    'x-summary-ru': op.summaryRu,
    description: op.description,
    ...(parameters.length ? { parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: !op.body.schema.safeParse({}).success,
            description: op.body.description,
            content: mediaTypes(op, { $ref: componentRef(op.body.name) }, op.body.example, 'request'),
          },
        }
      : {}),
    responses,
    ...(op.public ? { security: [] } : {}),
  };
}

function infoDescription(): string {
  const codes = ['| code | HTTP | meaning |', '|---|---|---|', ...errorCodes.map((c) => `| ${c.code} | ${c.status} | ${c.meaning} |`)].join('\n');
  return [
    'The local HTTP interface of ShipDesk: the delivery aggregation interface (pickup points, tariffs, orders, statuses, calculator, spreadsheet upload) served on 127.0.0.1 for the shop\'s other software. The same reference is readable at `/docs`.',
    ...generalSections.map((s) => `## ${s.title}\n\n${s.body}${s.id === 'errors' ? `\n\n${codes}` : ''}`),
  ].join('\n\n');
}

/** The OpenAPI 3.1 document of the given operations (routes/index.ts: the documented routes). */
export function buildOpenApiDocument(operations: Operation[]) {
  const { input, output } = collect(operations);
  const schemas = { ...convert(output, 'output'), ...convert(input, 'input') };
  for (const [name, schema] of Object.entries(schemas)) applyNotes(name, schema, schemas);
  for (const name of trimmableRecords) {
    delete schemas[name].required;
    schemas[name].description = [schemas[name].description, trimmableNote].filter(Boolean).join(' ');
  }
  schemas.ErrorBody.examples = [errorExample];
  annotateXml(schemas);

  const paths: Record<string, Json> = {};
  for (const op of operations) {
    paths[op.path] ??= {};
    paths[op.path][op.method.toLowerCase()] = operationObject(op);
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'ShipDesk local delivery interface',
      version: '1',
      description: infoDescription(),
    },
    servers: [
      { url: 'http://127.0.0.1:{port}/v1', description: 'With the /v1 prefix', variables: { port: { default: '4318' } } },
      { url: 'http://127.0.0.1:{port}', description: 'The same operations without the prefix', variables: { port: { default: '4318' } } },
    ],
    tags: (Object.keys(tagDescriptions) as Tag[]).map((name) => ({ name, description: tagDescriptions[name] })),
    security: [{ token: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        token: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'The raw API token (`Authorization: <token>`); `Authorization: Bearer <token>` is accepted too. Missing or unknown: 401, code 040101.',
        },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

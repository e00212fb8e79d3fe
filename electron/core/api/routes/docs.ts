import type { ServerResponse } from 'node:http';
import { buildOpenApiDocument, type OpenApiDocument } from '../openapi/document';
import { renderDocsPage } from '../openapi/html';
import { operationsOf } from '../openapi/operations';
import { htmlPageSchema, openApiDocumentSchema } from '../openapi/schemas';
import { defineRoute, type Route } from '../route';
import { contentSecurityPolicy } from '../static-files';

/** Writes a fixed document: these two answers are always JSON and HTML, whatever Accept says. */
const document = (contentType: string, text: () => string, extra: Record<string, string> = {}) => async () => ({
  stream(res: ServerResponse) {
    const body = text();
    res.writeHead(200, {
      'Content-Type': contentType,
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      ...extra,
    });
    res.end(body);
  },
});

/**
 * The reference of the interface, public (no token): `GET /openapi.json` (OpenAPI 3.1, generated from the
 * documented routes: their schemas and docs) and `GET /docs` (the same, as a readable page). Both also under /v1.
 * `documented` gives the routes to describe, these two included; both answers are built once.
 */
export function docsRoutes(documented: () => Route[]): Route[] {
  let openApi: OpenApiDocument | undefined;
  let page: string | undefined;
  const reference = () => (openApi ??= buildOpenApiDocument(operationsOf(documented())));
  return [
    defineRoute({
      method: 'GET',
      pattern: '/openapi.json',
      public: true,
      answer: openApiDocumentSchema,
      doc: {
      id: 'getOpenApi',
      tag: 'Reference',
      summary: 'This reference as OpenAPI 3.1',
      summaryRu: 'Описание интерфейса в формате OpenAPI',
      description: 'The OpenAPI 3.1 document of this interface, generated from the same schemas the server checks with. Public: no token. Always JSON.',
      formats: ['json'],
      answer: { name: 'OpenApiDocument', description: 'The OpenAPI document.' },
      errors: [],
    },
      handler: document('application/json; charset=utf-8', () => JSON.stringify(reference())),
    }),
    defineRoute({
      method: 'GET',
      pattern: '/docs',
      public: true,
      answer: htmlPageSchema,
      doc: {
      id: 'getDocs',
      tag: 'Reference',
      summary: 'This reference as a page',
      summaryRu: 'Справочник по интерфейсу',
      description: 'A readable HTML page of this reference (no scripts, nothing loaded from elsewhere). Public: no token.',
      formats: ['html'],
      answer: { name: 'HtmlPage', description: 'The HTML page.' },
      errors: [],
    },
      handler: document('text/html; charset=utf-8', () => (page ??= renderDocsPage(reference(), operationsOf(documented()))), {
        'Content-Security-Policy': contentSecurityPolicy,
        'X-Frame-Options': 'DENY',
      }),
    }),
  ];
}

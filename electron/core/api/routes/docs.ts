import type { ServerResponse } from 'node:http';
import { openApiDocument } from '../openapi/document';
import { renderDocsPage } from '../openapi/html';
import { operations } from '../openapi/operations';
import type { Route } from '../route';
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

let page: string | undefined;

/**
 * The reference of the interface, public (no token): `GET /openapi.json` (OpenAPI 3.1, generated from the
 * zod schemas and openapi/operations.ts) and `GET /docs` (the same, as a readable page). Both also under /v1.
 */
export function docsRoutes(): Route[] {
  return [
    { method: 'GET', pattern: '/openapi.json', public: true, handler: document('application/json; charset=utf-8', () => JSON.stringify(openApiDocument())) },
    {
      method: 'GET',
      pattern: '/docs',
      public: true,
      handler: document('text/html; charset=utf-8', () => (page ??= renderDocsPage(openApiDocument(), operations)), {
        'Content-Security-Policy': contentSecurityPolicy,
        'X-Frame-Options': 'DENY',
      }),
    },
  ];
}

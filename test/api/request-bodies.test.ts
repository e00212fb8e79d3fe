import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../shared/errors';
import { INLINE_PARSE_LIMIT } from '../../electron/core/api/body-limits';
import { MAX_INPUT_DEPTH } from '../../electron/core/validation';
import { orderPayload } from '../helpers/payloads';
import { startTestServer, type TestServer } from '../helpers/test-server';

/**
 * Large and hostile request bodies: parsed off the main thread (three parallel 41 MB XML uploads used to hold
 * every other caller for seconds), nesting and broken text refused with the error body instead of a 500.
 * bench/benchmarks/bodies.ts measures the stall; these tests check the behaviour.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ imports: { registrationWaitMs: 0 } });
});
afterAll(async () => {
  await server?.close();
});

const xmlHeaders = { 'Content-Type': 'application/xml', Accept: 'application/json' };

function xmlUpload(fileBytes: number): string {
  const file = Buffer.alloc(fileBytes, 0x5a).toString('base64');
  return (
    `<?xml version="1.0" encoding="UTF-8"?><request><providerKey>sandbox-express</providerKey><mode>sync</mode>` +
    `<file><base64>${file}</base64></file><columnSettings><timeFormat>H:i</timeFormat><nameFormat>0</nameFormat>` +
    `<itemsNewRow>1</itemsNewRow></columnSettings><columnMap><order><clientNumber>A</clientNumber></order></columnMap></request>`
  );
}

/** The longest text the main thread parsed while `work` ran (XML and JSON). */
async function longestParsedOnMainThread(work: () => Promise<unknown>): Promise<number> {
  const xml = vi.spyOn(XMLParser.prototype, 'parse');
  const json = vi.spyOn(JSON, 'parse');
  try {
    await work();
    const lengths = [...xml.mock.calls, ...json.mock.calls].map(([text]) => (typeof text === 'string' ? text.length : 0));
    return Math.max(0, ...lengths);
  } finally {
    xml.mockRestore();
    json.mockRestore();
  }
}

describe('large bodies are parsed off the main thread', () => {
  it('a 6 MB XML upload is read on a thread of its own and answered as the same request would be', async () => {
    let answer!: Awaited<ReturnType<TestServer['call']>>;
    const longest = await longestParsedOnMainThread(async () => {
      answer = await server.call('POST', '/v1/orders/upload', { raw: xmlUpload(4_500_000), headers: xmlHeaders });
    });
    // The settings were read from the document: the mapping is named field by field.
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe(ErrorCode.validation);
    expect(answer.json.errors).toContainEqual({ field: 'columnMap.order.weight', message: expect.stringMatching(/is required/) });
    expect(longest).toBeLessThanOrEqual(INLINE_PARSE_LIMIT);
  });

  it('a large malformed XML or JSON body gets the same error as a small one', async () => {
    const brokenXml = `${xmlUpload(200_000).slice(0, -20)}</nope></request>`;
    const small = await server.call('POST', '/v1/orders', { raw: '<request><order></nope></request>', headers: xmlHeaders });
    const large = await server.call('POST', '/v1/orders/upload', { raw: brokenXml, headers: xmlHeaders });
    expect(small.json.description).toMatch(/^Malformed XML: /);
    expect(large.status).toBe(400);
    expect(large.json).toMatchObject({ code: ErrorCode.general, description: expect.stringMatching(/^Malformed XML: /) });

    const brokenJson = `{"comment":"${'x'.repeat(200_000)}",`;
    const json = await server.call('POST', '/v1/orders', { raw: brokenJson, headers: { 'Content-Type': 'application/json' } });
    expect(json.status).toBe(400);
    expect(json.json.description).toMatch(/^Malformed JSON: /);
  });

  it('a large body that is not UTF-8 is refused as such', async () => {
    const bytes = Buffer.concat([Buffer.from('{"comment":"'), Buffer.alloc(200_000, 0xff), Buffer.from('"}')]);
    const answer = await server.call('POST', '/v1/orders', { raw: bytes, headers: { 'Content-Type': 'application/json' } });
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe(ErrorCode.notUtf8);
  });
});

describe('hostile shapes get a 4xx, not a 500', () => {
  const deepJson = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

  it('a 100,000-deep JSON object is refused naming how deep input may go', async () => {
    const answer = await server.call('POST', '/v1/orders', { raw: deepJson(100_000), headers: { 'Content-Type': 'application/json' } });
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe(ErrorCode.validation);
    expect(answer.json.errors[0].message).toBe(`is nested deeper than ${MAX_INPUT_DEPTH} levels`);
  });

  it('a 100,000-deep XML document is refused too', async () => {
    const deep = `<request>${'<a>'.repeat(100_000)}1${'</a>'.repeat(100_000)}</request>`;
    const answer = await server.call('POST', '/v1/orders/upload', { raw: deep, headers: xmlHeaders });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
  });

  it('a 100,000-deep draft from the window is refused with a field error', async () => {
    let deep: Record<string, unknown> = { end: 1 };
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const result = await server.app.dispatch('drafts.save', server.shop, { payload: deep });
    expect(result).toMatchObject({ ok: false, error: { code: ErrorCode.validation } });
  });

  it('text with a lone surrogate is refused naming the field, and no order is made', async () => {
    const payload = JSON.stringify(orderPayload('SURROGATE-1')).replace('"SURROGATE-1"', '"SURROGATE-1\\ud800"');
    const answer = await server.call('POST', '/v1/orders', { raw: payload, headers: { 'Content-Type': 'application/json' } });
    expect(answer.status).toBe(400);
    expect(answer.json.errors).toEqual([{ field: 'order.clientNumber', message: expect.stringMatching(/lone UTF-16 surrogate/) }]);
    const list = await server.call('GET', '/v1/orders?filter=clientNumber%25SURROGATE');
    expect(JSON.stringify(list.json)).not.toContain('SURROGATE-1');
  });
});

import fc from 'fast-check';
import { orderPayload } from '../helpers/payloads';
import { startTestServer, type TestServer } from '../helpers/test-server';

// Properties of the shapes the aggregator's clients use: extraParams sent as a map or as [{ key, value }]
// read back as the same entries, and empty lists in a calculator body never narrow its answer.

let server: TestServer;
let services: { extraParamName: string; valueType: 'bool' | 'string' | 'int' | 'float' }[];
beforeAll(async () => {
  server = await startTestServer();
  services = (await server.call('GET', '/v1/lists/services?providerKey=sandbox-express')).json;
});
afterAll(async () => {
  await server.close();
});

const seed = 20261125;

/** A value of the service's type as it is stored (the typed value) and as clients may write it (typed or text). */
const valueOf = (type: string) =>
  type === 'bool'
    ? fc.boolean().chain((b) => fc.constantFrom({ stored: b, sent: b as unknown }, { stored: b, sent: b ? '1' : '0' }))
    : type === 'int'
      ? fc.integer({ min: 0, max: 500 }).chain((n) => fc.constantFrom({ stored: n, sent: n as unknown }, { stored: n, sent: String(n) }))
      : type === 'float'
        ? fc.integer({ min: 0, max: 50_000 }).map((n) => n / 100).chain((n) => fc.constantFrom({ stored: n, sent: n as unknown }, { stored: n, sent: String(n) }))
        : fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.trim() === s && s.length > 0).map((s) => ({ stored: s, sent: s as unknown }));

describe('extraParams in either form', () => {
  it('round-trip: GET /orders/{orderId} gives back the entries sent, typed, as [{ key, value }]', async () => {
    let n = 0;
    const chosen = fc
      .subarray(services, { minLength: 0, maxLength: 4 })
      .chain((list) => fc.tuple(...list.map((s) => valueOf(s.valueType).map((v) => ({ key: s.extraParamName, ...v })))))
      .map((entries) => entries as { key: string; stored: unknown; sent: unknown }[]);
    await fc.assert(
      fc.asyncProperty(chosen, fc.boolean(), async (entries, asList) => {
        const extraParams = asList ? entries.map((e) => ({ key: e.key, value: e.sent })) : Object.fromEntries(entries.map((e) => [e.key, e.sent]));
        const created = await server.call('POST', '/v1/orders', { body: { ...orderPayload(`XP-PROP-${++n}`), extraParams } });
        if (created.status !== 200) throw new Error(created.text);
        const read = (await server.call('GET', `/v1/orders/${created.json.orderId}`)).json.extraParams;
        expect(read).toEqual(entries.map((e) => ({ key: e.key, value: e.stored })));
      }),
      { seed, numRuns: 40 },
    );
  });
});

describe('empty lists in a calculator body', () => {
  it('never narrow the answer: [] is the same as leaving the list out', async () => {
    const cities = ['Москва', 'Санкт-Петербург', 'Казань', 'Екатеринбург', 'Новосибирск'];
    const body = fc.record({
      from: fc.constantFrom(...cities).map((city) => ({ city })),
      to: fc.constantFrom(...cities).map((city) => ({ city })),
      places: fc.array(fc.record({ weight: fc.integer({ min: 100, max: 20_000 }), length: fc.integer({ min: 5, max: 60 }), width: fc.integer({ min: 5, max: 60 }), height: fc.integer({ min: 5, max: 60 }) }), { minLength: 1, maxLength: 3 }),
      codCost: fc.constantFrom(0, 1500),
      assessedCost: fc.constantFrom(0, 1500),
    });
    const emptied = fc.subarray(['providerKeys', 'tariffIds', 'pickupTypes', 'deliveryTypes'], { minLength: 1 });
    await fc.assert(
      fc.asyncProperty(body, emptied, async (request, lists) => {
        const plain = await server.call('POST', '/v1/calculator', { body: request });
        const withEmpty = await server.call('POST', '/v1/calculator', { body: { ...request, ...Object.fromEntries(lists.map((l) => [l, []])) } });
        expect(withEmpty.status, withEmpty.text).toBe(plain.status);
        expect(withEmpty.json).toEqual(plain.json);
      }),
      { seed, numRuns: 30 },
    );
  });
});

import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { isXmlElementName, parseXmlBody, toXmlDocument } from '../../electron/core/api/xml';
import { startTestServer, type TestServer } from '../helpers/test-server';

// The XML writer of the interface: whatever a route answers, the document is well-formed XML under `response`.

const wellFormed = (text: string) => XMLValidator.validate(text) === true;

describe('XML answers are always well-formed', () => {
  it('any JSON value, with any keys and any text, gives a well-formed document under response', () => {
    const anyText = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('1', '1x', 'a b', '#text', '@_id', 'a:b', 'xml', '-a', '.a', 'ок', '', '\u0000', '\uD800', '\uFFFE', '😀'));
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ maxDepth: 4 }, tie('leaf'), tie('list'), tie('object')),
      leaf: fc.oneof(anyText, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)),
      list: fc.array(tie('node'), { maxLength: 4 }),
      object: fc.dictionary(anyText, tie('node'), { maxKeys: 4 }),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        const text = toXmlDocument(v);
        expect(wellFormed(text), text).toBe(true);
        expect(text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<response[/>]/);
        expect(() => parseXmlBody(text)).not.toThrow();
      }),
      { seed: 20_260_301, numRuns: 500 },
    );
  });

  it('an element name is an XML Name without ":"; digits, spaces and markup characters are not', () => {
    for (const name of ['orderId', 'order_id', 'a-b.c', 'ок', '_1', 'xmlData']) expect(isXmlElementName(name), name).toBe(true);
    for (const name of ['1', '1x', '', 'a b', 'a:b', '#text', '@_id', '-a', '.a', 'a/b', '<a>', '😀']) expect(isXmlElementName(name), name).toBe(false);
  });

  it('an object with a key that is not an element name becomes item{key,value}; other objects keep their elements', () => {
    const text = toXmlDocument({ extraParams: { '1st': 'a', insurance: 1 }, order: { clientNumber: 'A-1' } });
    expect(text).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<response><extraParams><item><key>1st</key><value>a</value></item><item><key>insurance</key><value>1</value></item></extraParams>' +
        '<order><clientNumber>A-1</clientNumber></order></response>',
    );
    expect(parseXmlBody(text)).toEqual({ extraParams: [{ key: '1st', value: 'a' }, { key: 'insurance', value: '1' }], order: { clientNumber: 'A-1' } });
  });

  it('characters XML cannot carry become U+FFFD; the rest is escaped', () => {
    const text = toXmlDocument({ name: 'a\u0001b\uD800c<&>' });
    expect(text).toContain('<name>a\uFFFDb\uFFFDc&lt;&amp;&gt;</name>');
    expect(wellFormed(text)).toBe(true);
  });
});

describe('the points list keeps its XML worktime', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('worktime is item{day,hours} per open day, as before', async () => {
    const res = await server.call('GET', '/v1/lists/points?limit=3', { headers: { Accept: 'application/xml' } });
    expect(res.status).toBe(200);
    expect(wellFormed(res.text)).toBe(true);
    const rows = new XMLParser({ parseTagValue: false }).parse(res.text).response.rows.item;
    for (const point of rows) {
      const days = [point.worktime.item].flat();
      expect(days.length).toBeGreaterThan(0);
      for (const day of days) expect(day).toEqual({ day: expect.stringMatching(/^[1-7]$/), hours: expect.stringMatching(/^\d{2}:\d{2}\/\d{2}:\d{2}$/) });
    }
    expect(res.text).not.toMatch(/<\d/);
  });
});

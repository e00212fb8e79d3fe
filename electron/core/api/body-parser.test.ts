import { createBodyParser, type BodyParser } from './body-parser';
import { HELD_FILE_CHARS, INLINE_PARSE_LIMIT } from './body-limits';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { parseText } from './codec';

/** Runs `work` with a body parser of `threads` threads (idle ones end after 50 ms), closed after. */
async function withParser(work: (parser: BodyParser) => Promise<void>, threads = 1) {
  const parser = createBodyParser(parseText, threads, 50);
  try {
    await work(parser);
  } finally {
    await parser.close();
  }
}

/** A JSON body past the inline limit: parsed in a thread. */
const largeBody = (n: number) => new TextEncoder().encode(JSON.stringify({ n, text: 'я'.repeat(INLINE_PARSE_LIMIT) }));

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe('body-parsing threads', () => {
  it('a thread left idle ends (its heap with it), and the next large body starts one again', async () => {
    await withParser(async (parser) => {
      expect(parser.threads).toBe(0);
      const first = await parser.parse(largeBody(1), 'json');
      expect(first).toMatchObject({ ok: true, value: { n: 1 } });
      await until(() => parser.threads === 0); // before: kept for the process's life, tens of MB of the last body's text

      const [second, third] = await Promise.all([parser.parse(largeBody(2), 'json'), parser.parse(largeBody(3), 'json')]);
      expect(second).toMatchObject({ ok: true, value: { n: 2 } });
      expect(third).toMatchObject({ ok: true, value: { n: 3 } });
      await until(() => parser.threads === 0);
    }, 2);
  }, 60_000);

  /** Each thread of this process with its nice value (Linux: the 19th field of /proc/self/task/<tid>/stat). */
  const threadNices = () =>
    readdirSync('/proc/self/task').map((tid) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[16]));

  it.runIf(existsSync('/proc/thread-self'))('a parsing thread runs at nice 10 (Linux), so the main thread answers first while big bodies are parsed', async () => {
    const before = threadNices().filter((nice) => nice === 10).length;
    await withParser(async (parser) => {
      expect(await parser.parse(largeBody(1), 'json')).toMatchObject({ ok: true });
      expect(parser.threads).toBe(1);
      expect(threadNices().filter((nice) => nice === 10).length).toBe(before + 1);
    });
  }, 60_000);

  it('a thread that gets a body while idle keeps parsing: bodies in a row are all answered', async () => {
    await withParser(async (parser) => {
      for (let n = 0; n < 4; n++) expect(await parser.parse(largeBody(n), 'json')).toMatchObject({ ok: true, value: { n } });
      const malformed = new TextEncoder().encode(`{"text": "${'x'.repeat(INLINE_PARSE_LIMIT)}"`);
      expect(await parser.parse(malformed, 'json')).toMatchObject({ ok: false, problem: 'syntax' });
    });
  }, 60_000);
});

describe('a route\'s base64 file field in a large body', () => {
  const bytes = Buffer.from(Array.from({ length: HELD_FILE_CHARS }, (_, i) => (i * 7) % 256));
  const base64 = bytes.toString('base64');

  it('is decoded in the thread: the bytes come back, the text does not (JSON and XML)', async () => {
    await withParser(async (parser) => {
      const json = await parser.parse(new TextEncoder().encode(JSON.stringify({ mode: 'sync', file: { base64 } })), 'json', ['file', 'base64']);
      expect(json).toMatchObject({ ok: true, value: { mode: 'sync', file: { base64: '' } } });
      expect(json.ok && Buffer.from(json.file!).equals(bytes)).toBe(true);
      const xml = await parser.parse(new TextEncoder().encode(`<request><file><base64>${base64}</base64></file></request>`), 'xml', ['file', 'base64']);
      expect(xml).toMatchObject({ ok: true, value: { request: { file: { base64: '' } } } });
      expect(xml.ok && Buffer.from(xml.file!).equals(bytes)).toBe(true);
    });
  });

  it('stays text when it is not plain base64 (line breaks, another field, too short): the main thread judges it as before', async () => {
    await withParser(async (parser) => {
      const wrapped = base64.replace(/(.{76})/g, '$1\n');
      const broken = await parser.parse(new TextEncoder().encode(JSON.stringify({ file: { base64: wrapped } })), 'json', ['file', 'base64']);
      expect(broken).toMatchObject({ ok: true, value: { file: { base64: wrapped } } });
      expect(broken.ok && broken.file).toBeUndefined();
      const other = await parser.parse(new TextEncoder().encode(JSON.stringify({ file: { url: base64 } })), 'json', ['file', 'base64']);
      expect(other.ok && other.file).toBeUndefined();
      const unasked = await parser.parse(new TextEncoder().encode(JSON.stringify({ file: { base64 } })), 'json');
      expect(unasked).toMatchObject({ ok: true, value: { file: { base64 } } });
    });
  });
});

describe('long base64 texts of a large XML document', () => {
  const bytes = Buffer.from(Array.from({ length: HELD_FILE_CHARS }, (_, i) => (i * 13) % 256));
  const base64 = bytes.toString('base64');
  const other = Buffer.from(Array.from({ length: HELD_FILE_CHARS }, (_, i) => (i * 5) % 256)).toString('base64');
  const encode = (text: string) => new TextEncoder().encode(text);

  it('give the value the whole document gives: each text back in its place, in CDATA and beside other text too', async () => {
    await withParser(async (parser) => {
      const doc =
        `<?xml version="1.0" encoding="UTF-8"?><request><mode>sync</mode><file>\n  <base64>\n ${base64}\n</base64></file>` +
        `<note>${other}</note><list><item>${other}</item><item>x &amp; y</item></list><raw><![CDATA[${base64}]]></raw><!-- ${other} --></request>`;
      const inline = parseText(encode(doc), 'xml');
      const threaded = await parser.parse(encode(doc), 'xml');
      expect(inline.ok && threaded.ok).toBe(true);
      expect(threaded.ok && threaded.value).toEqual(inline.ok && inline.value);
      expect(JSON.stringify(threaded.ok && threaded.value)).toContain(other); // not a mark
    });
  });

  it('the file field\'s text comes back as bytes; another long text stays text', async () => {
    await withParser(async (parser) => {
      const parsed = await parser.parse(encode(`<request><file><base64> ${base64} </base64></file><note>${other}</note></request>`), 'xml', ['file', 'base64']);
      expect(parsed).toMatchObject({ ok: true, value: { request: { file: { base64: '' }, note: other } } });
      expect(parsed.ok && Buffer.from(parsed.file!).equals(bytes)).toBe(true);
    });
  });

  it('a malformed document holding one is described as the whole document is, its lines and columns included', async () => {
    await withParser(async (parser) => {
      for (const doc of [`<request><note>${other}</note><a>${base64}</b></request>`, `<request>\n<note>${other}</note>\n<a></b></request>`]) {
        const threaded = await parser.parse(encode(doc), 'xml');
        expect(threaded).toEqual(parseText(encode(doc), 'xml'));
        expect(threaded).toMatchObject({ ok: false, problem: 'syntax' });
      }
    });
  });
});

describe('a large body parsed as it arrives', () => {
  const chunksOf = (bytes: Uint8Array, size: number) => Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));

  it('gives what the whole body gives, its file field\'s bytes included (JSON and XML)', async () => {
    await withParser(async (parser) => {
      const bytes = Buffer.from(Array.from({ length: HELD_FILE_CHARS }, (_, i) => (i * 3) % 256));
      for (const [format, text] of [
        ['json', JSON.stringify({ mode: 'sync', note: 'я'.repeat(1000), file: { base64: bytes.toString('base64') } })],
        ['xml', `<request><mode>sync</mode><note>${'я'.repeat(1000)}</note><file><base64>${bytes.toString('base64')}</base64></file></request>`],
      ] as const) {
        const body = new TextEncoder().encode(text);
        const stream = parser.receive(body.length + 10, format, ['file', 'base64']); // a little less came than was said
        await stream.ready;
        // pieces that split the two-byte letters; every other one in memory of its own, which moves to the thread
        const pieces = chunksOf(body, 65_521).map((piece, i) => (i % 2 ? new Uint8Array(piece) : piece));
        for (const piece of pieces) stream.write(piece);
        const own = pieces.filter((_, i) => i % 2);
        expect(own.map((piece) => piece.byteLength)).toEqual(own.map(() => 0)); // moved, not copied
        const streamed = await stream.finish();
        const whole = await parser.parse(body, format, ['file', 'base64']);
        expect(streamed.ok && streamed.value).toEqual(whole.ok && whole.value);
        expect(streamed.ok && Buffer.from(streamed.file!).equals(bytes)).toBe(true);
      }
    });
  });

  it('a body that will not complete frees its thread for the next, which waited its turn', async () => {
    await withParser(async (parser) => {
      const first = parser.receive(1_000_000, 'json');
      await first.ready;
      first.write(new TextEncoder().encode('{"half": "'));
      let secondTaken = false;
      const second = parser.receive(INLINE_PARSE_LIMIT + 100, 'json');
      void second.ready.then(() => (secondTaken = true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(secondTaken).toBe(false); // the only thread has the first
      first.cancel();
      await second.ready;
      second.write(new TextEncoder().encode(JSON.stringify({ text: 'x'.repeat(INLINE_PARSE_LIMIT) })));
      expect(await second.finish()).toMatchObject({ ok: true, value: { text: 'x'.repeat(INLINE_PARSE_LIMIT) } });
      expect(parser.threads).toBe(1);
    });
  });
});

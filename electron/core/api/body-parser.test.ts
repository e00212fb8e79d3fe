import { createBodyParser } from './body-parser';
import { INLINE_PARSE_LIMIT } from './body-limits';
import { parseText } from './codec';

/** A JSON body past the inline limit: parsed in a thread. */
const largeBody = (n: number) => new TextEncoder().encode(JSON.stringify({ n, text: 'я'.repeat(INLINE_PARSE_LIMIT) }));

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe('body-parsing threads', () => {
  it('a thread left idle ends (its heap with it), and the next large body starts one again', async () => {
    const parser = createBodyParser(parseText, 2, 50);
    try {
      expect(parser.threads).toBe(0);
      const first = await parser.parse(largeBody(1), 'json');
      expect(first).toMatchObject({ ok: true, value: { n: 1 } });
      await until(() => parser.threads === 0); // before: kept for the process's life, tens of MB of the last body's text

      const [second, third] = await Promise.all([parser.parse(largeBody(2), 'json'), parser.parse(largeBody(3), 'json')]);
      expect(second).toMatchObject({ ok: true, value: { n: 2 } });
      expect(third).toMatchObject({ ok: true, value: { n: 3 } });
      await until(() => parser.threads === 0);
    } finally {
      await parser.close();
    }
  }, 60_000);

  it('a thread that gets a body while idle keeps parsing: bodies in a row are all answered', async () => {
    const parser = createBodyParser(parseText, 1, 50);
    try {
      for (let n = 0; n < 4; n++) expect(await parser.parse(largeBody(n), 'json')).toMatchObject({ ok: true, value: { n } });
      const malformed = new TextEncoder().encode(`{"text": "${'x'.repeat(INLINE_PARSE_LIMIT)}"`);
      expect(await parser.parse(malformed, 'json')).toMatchObject({ ok: false, problem: 'syntax' });
    } finally {
      await parser.close();
    }
  }, 60_000);
});

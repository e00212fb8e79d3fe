import { createPageCache, type EncodedPage } from './page-cache';

const page = (text: string): EncodedPage => ({ contentType: 'application/json; charset=utf-8', bytes: Buffer.from(text) });

describe('the cache of encoded list pages', () => {
  it('answers a kept page with the same bytes without building it again', async () => {
    const cache = createPageCache(1024 * 1024);
    let builds = 0;
    const build = async () => page(`{"built":${++builds}}`);
    const first = await cache.get('v1', 'a', build);
    const second = await cache.get('v1', 'a', build);
    expect(second.bytes.equals(first.bytes)).toBe(true);
    expect(builds).toBe(1);
    expect(cache.stats()).toMatchObject({ pages: 1, hits: 1, misses: 1 });
  });

  it('builds again once the data version changes', async () => {
    const cache = createPageCache(1024 * 1024);
    await cache.get('v1', 'a', async () => page('old'));
    const after = await cache.get('v2', 'a', async () => page('new'));
    expect(after.bytes.toString()).toBe('new');
    expect((await cache.get('v2', 'a', async () => page('newer'))).bytes.toString()).toBe('new');
  });

  it('does not keep a page built for a version that changed while it was being built', async () => {
    const cache = createPageCache(1024 * 1024);
    let release!: () => void;
    const slow = cache.get('v1', 'a', () => new Promise<EncodedPage>((resolve) => (release = () => resolve(page('stale')))));
    await cache.get('v2', 'b', async () => page('other'));
    release();
    expect((await slow).bytes.toString()).toBe('stale');
    expect((await cache.get('v2', 'a', async () => page('fresh'))).bytes.toString()).toBe('fresh');
  });

  it('builds a page asked for by many callers at once only once', async () => {
    const cache = createPageCache(1024 * 1024);
    let builds = 0;
    const answers = await Promise.all(Array.from({ length: 10 }, () => cache.get('v1', 'a', async () => page(`b${++builds}`))));
    expect(builds).toBe(1);
    expect(new Set(answers.map((a) => a.bytes.toString()))).toEqual(new Set(['b1']));
  });

  it('a failed build is not kept: the next caller builds again', async () => {
    const cache = createPageCache(1024 * 1024);
    await expect(cache.get('v1', 'a', async () => Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
    expect((await cache.get('v1', 'a', async () => page('ok'))).bytes.toString()).toBe('ok');
  });

  it('stays within its bytes, dropping the least recently used page, and answers a page larger than the bound without keeping it', async () => {
    const cache = createPageCache(10_000);
    const kilobyte = (n: number) => page(String(n).padEnd(1000, '.'));
    for (let i = 0; i < 30; i++) {
      await cache.get('v1', `p${i}`, async () => kilobyte(i));
      if (i === 20) await cache.get('v1', 'p0', async () => kilobyte(-1)); // p0 was dropped long ago: built again
      expect(cache.stats().bytes).toBeLessThanOrEqual(10_000);
    }
    expect(cache.stats().pages).toBeLessThan(10);
    expect(cache.stats().pages).toBeGreaterThan(5);
    const huge = await cache.get('v1', 'huge', async () => page('x'.repeat(20_000)));
    expect(huge.bytes.length).toBe(20_000);
    expect(cache.stats().bytes).toBeLessThanOrEqual(10_000);
    let rebuilt = false;
    await cache.get('v1', 'huge', async () => {
      rebuilt = true;
      return page('x');
    });
    expect(rebuilt).toBe(true);
    // The most recently used pages are the ones kept.
    let recentRebuilt = false;
    await cache.get('v1', 'p29', async () => {
      recentRebuilt = true;
      return kilobyte(29);
    });
    expect(recentRebuilt).toBe(false);
  });
});

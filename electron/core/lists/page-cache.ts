import { LRUCache } from 'lru-cache';

/** An answer as it goes out: its media type and bytes. */
export interface EncodedPage {
  contentType: string;
  bytes: Buffer;
}

/** Bytes the cached pages of one list may hold together (a 1,000-point page is about 0.6 MB of JSON). */
export const DEFAULT_PAGE_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Encoded answers of a list, by what the caller asked (normalized), for one version of the data: the first
 * answer for a version other than the one held empties the cache. Bounded by bytes, least recently used
 * out first; a page larger than the bound is answered but not kept. Requests for the same page while it is
 * being built wait for that one build.
 */
export function createPageCache(maxBytes = DEFAULT_PAGE_CACHE_BYTES) {
  const pages = new LRUCache<string, EncodedPage>({
    maxSize: maxBytes,
    // The key's characters count too, so many tiny pages cannot outgrow the bound.
    sizeCalculation: (page, key) => page.bytes.length + key.length * 2 + 64,
  });
  const building = new Map<string, Promise<EncodedPage>>();
  let held = '';
  let hits = 0;
  let misses = 0;

  return {
    /** The page for `key` at data `version`: kept bytes, or `build`'s (kept only while `version` is still the one held). */
    async get(version: string, key: string, build: () => Promise<EncodedPage>): Promise<EncodedPage> {
      if (version !== held) {
        pages.clear();
        building.clear();
        held = version;
      }
      const kept = pages.get(key);
      if (kept) {
        hits += 1;
        return kept;
      }
      misses += 1;
      let pending = building.get(key);
      if (!pending) {
        pending = build();
        building.set(key, pending);
        const done = pending;
        done.then(
          (page) => {
            if (building.get(key) === done) building.delete(key);
            if (held === version) pages.set(key, page);
          },
          () => {
            if (building.get(key) === done) building.delete(key);
          },
        );
      }
      return pending;
    },
    stats: () => ({ pages: pages.size, bytes: pages.calculatedSize, maxBytes, hits, misses }),
  };
}

export type PageCache = ReturnType<typeof createPageCache>;

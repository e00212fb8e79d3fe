import type { PointSource } from '../../lists/carrier-reference';
import type { YandexClient } from './client';
import { YANDEX_KEY, latitudeBand, pointFromYandex } from './mapping';
import { yandexPointSchema, yandexPointsSchema, type YandexPoint } from './wire';

/** The `source` of Yandex rows in the shared reference tables; its new points get ids above the base. */
export const YANDEX_POINT_SOURCE = 'yandex-delivery';
export const YANDEX_POINT_ID_BASE = 20_000_000;

/**
 * Yandex's pickup points, drop-off points and lockers as reference data. `pickup-points/list` has no pages, only
 * coordinate boxes, so each page is one band of latitude across Russia; lists/ stores them.
 */
export function yandexPointSource(client: YandexClient, bandDegrees = 2): PointSource {
  return {
    providerKey: YANDEX_KEY,
    source: YANDEX_POINT_SOURCE,
    idBase: YANDEX_POINT_ID_BASE,
    async page(index) {
      const band = latitudeBand(index, bandDegrees);
      const answer = yandexPointsSchema.parse(await client.call('POST', '/pickup-points/list', { body: { latitude: { from: band.from, to: band.to }, longitude: { from: 19, to: 180 } } }));
      const points: YandexPoint[] = [];
      let skipped = 0;
      for (const raw of answer.points) {
        const parsed = yandexPointSchema.safeParse(raw);
        // A point exactly on a band's edge comes in both bands: it belongs to the southern one.
        if (parsed.success && (band.last || parsed.data.position.latitude < band.to)) points.push(parsed.data);
        else if (!parsed.success) skipped++;
      }
      return { points: points.map((p) => ({ code: p.id, toPoint: (id: number) => pointFromYandex(p, id) })), skipped, more: !band.last };
    },
  };
}

import type { PointSource } from '../../lists/carrier-reference';
import type { CdekClient } from './client';
import { CDEK_KEY, officeToPoint } from './mapping';
import { CDEK_POINT_ID_BASE, CDEK_POINT_SOURCE } from './offices-store';
import { cdekOfficeSchema, type CdekOffice } from './wire';

/**
 * CDEK's offices as reference data: `GET /v2/deliverypoints` page by page (the last one told by the
 * X-Total-Pages header, or by a short page), each office mapped to our point record. lists/ stores them.
 */
export function cdekOfficePages(client: CdekClient, pageSize = 1000): PointSource {
  return {
    providerKey: CDEK_KEY,
    source: CDEK_POINT_SOURCE,
    idBase: CDEK_POINT_ID_BASE,
    async page(index) {
      const reply = await client.call<unknown>('GET', '/deliverypoints', { query: { type: 'ALL', size: pageSize, page: index } });
      const list = Array.isArray(reply.body) ? reply.body : [];
      const offices: CdekOffice[] = [];
      let skipped = 0;
      for (const raw of list) {
        const parsed = cdekOfficeSchema.safeParse(raw);
        if (parsed.success) offices.push(parsed.data);
        else skipped++;
      }
      const totalPages = Number(reply.headers.get('x-total-pages'));
      const more = reply.headers.has('x-total-pages') && Number.isFinite(totalPages) ? index + 1 < totalPages : list.length >= pageSize && list.length > 0;
      return { points: offices.map((office) => ({ code: office.code, toPoint: (id: number) => officeToPoint(office, id) })), skipped, more };
    },
  };
}

/**
 * CDEK offices live in the shared points table (source 'cdek', providerKey 'cdek'), stored there by lists/
 * (carrier-reference.ts) from the pages the adapter answers, so /lists/points and the point picker serve them
 * beside the sandbox points. New ones get ids above CDEK_POINT_ID_BASE, clear of the shipped datasets' ids.
 */
/** The `source` of CDEK rows in the shared reference tables (points, tariffs): the kind's key. */
export const CDEK_POINT_SOURCE = 'cdek';
export const CDEK_POINT_ID_BASE = 10_000_000;

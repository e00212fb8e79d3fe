import type { Point } from '../../../../shared/schemas/lists';
import { findPoint } from '../../lists/points-repository';
import type { Db } from '../../store/database';
import { CDEK_KEY } from './mapping';

/**
 * CDEK offices live in the shared points table (source 'cdek', providerKey 'cdek'), stored there by lists/
 * (carrier-reference.ts) from the pages the adapter answers, so /lists/points and the point picker serve them
 * beside the sandbox points. New ones get ids above CDEK_POINT_ID_BASE, clear of the shipped datasets' ids.
 */
/** The `source` of CDEK rows in the shared reference tables (points, tariffs). */
export const CDEK_POINT_SOURCE = 'cdek';
export const CDEK_POINT_ID_BASE = 10_000_000;

/** A CDEK point by our id (closed ones too, so a check can say "closed" rather than "unknown"). */
export const cdekPoint = (db: Db, id: number): Promise<Point | null> => findPoint(db, CDEK_KEY, id);

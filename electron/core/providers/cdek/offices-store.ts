import type { Point } from '../../../../shared/schemas/lists';
import { findPoint, pointToRow } from '../../lists/points-repository';
import type { Db } from '../../store/database';
import { CDEK_KEY, officeToPoint } from './mapping';
import type { CdekOffice } from './wire';

/**
 * CDEK offices live in the shared points table (source 'cdek', providerKey 'cdek'), so /lists/points and
 * the point picker serve them beside the sandbox points. A point keeps its id across syncs (matched by
 * code); new ones get ids above CDEK_POINT_ID_BASE, clear of the shipped datasets' ids.
 */
/** The `source` of CDEK rows in the shared reference tables (points, tariffs). */
export const CDEK_POINT_SOURCE = 'cdek';
export const CDEK_POINT_ID_BASE = 10_000_000;

export interface OfficeSyncRun {
  ids: Map<string, number>;
  nextId: number;
  seen: Set<number>;
}

/** Reads the ids CDEK offices already have, before a sync writes pages. */
export async function beginOfficeSync(db: Db): Promise<OfficeSyncRun> {
  const rows = await db.selectFrom('points').select(['id', 'code']).where('source', '=', CDEK_POINT_SOURCE).execute();
  const { top } = await db.selectFrom('points').select((eb) => eb.fn.max('id').as('top')).executeTakeFirstOrThrow();
  return { ids: new Map(rows.map((r) => [r.code, r.id])), nextId: Math.max(CDEK_POINT_ID_BASE, Number(top ?? 0)) + 1, seen: new Set() };
}

/** Writes one page of offices in one transaction (insert new, refresh known). */
export async function writeOffices(db: Db, run: OfficeSyncRun, offices: CdekOffice[]): Promise<void> {
  if (offices.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const office of offices) {
      const known = run.ids.get(office.code);
      const id = known ?? run.nextId++;
      const row = pointToRow(CDEK_POINT_SOURCE, officeToPoint(office, id));
      if (known === undefined) {
        await trx.insertInto('points').values(row).execute();
        run.ids.set(office.code, id);
      } else {
        const { id: _id, ...rest } = row;
        await trx.updateTable('points').set(rest).where('id', '=', id).execute();
      }
      run.seen.add(id);
    }
  });
}

/** After a complete sync: offices CDEK no longer lists are disabled (kept, so old orders still resolve). */
export async function disableUnseenOffices(db: Db, run: OfficeSyncRun): Promise<number> {
  const gone = [...run.ids.values()].filter((id) => !run.seen.has(id));
  let disabled = 0;
  for (let i = 0; i < gone.length; i += 500) {
    const result = await db.updateTable('points').set({ enabled: 0 }).where('id', 'in', gone.slice(i, i + 500)).where('enabled', '=', 1).executeTakeFirst();
    disabled += Number(result.numUpdatedRows);
  }
  return disabled;
}

/** A CDEK point by our id (closed ones too, so a check can say "closed" rather than "unknown"). */
export const cdekPoint = (db: Db, id: number): Promise<Point | null> => findPoint(db, CDEK_KEY, id);

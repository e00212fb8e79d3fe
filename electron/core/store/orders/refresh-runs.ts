import type { Db } from '../database';
import type { RefreshRun, StatusRefreshRunsStore } from './orders-store';

/** The orders a status refresh asks about: live, registered, not at a left-out status; the company's when given. */
export function tracked(db: Db, scope: { companyId?: number; leaveOut: readonly string[] }) {
  return db
    .selectFrom('orders')
    .where('state', '=', 'active')
    .where('provider_number', 'is not', null)
    .$if(scope.leaveOut.length > 0, (qb) => qb.where('status_key', 'not in', [...scope.leaveOut])) // PostgreSQL has no empty IN list
    .$if(scope.companyId !== undefined, (qb) => qb.where('company_id', '=', scope.companyId!));
}

/**
 * What the status refresh scheduler reads and writes (its tracked orders per company, the statuses a run brought,
 * refresh_runs), in Kysely's engine-neutral queries for both engines. Counts and ids come back as numbers.
 */
export function statusRefreshRuns(db: Db): StatusRefreshRunsStore {
  return {
    async trackedCounts(scope) {
      const rows = await tracked(db, scope).select((eb) => ['company_id', eb.fn.countAll<number>().as('n')]).groupBy('company_id').execute();
      return new Map(rows.map((r) => [Number(r.company_id), Number(r.n)]));
    },

    async trackedIds(query) {
      const rows = await tracked(db, query).select(['id', 'company_id']).where('id', '>', query.afterId).orderBy('id').limit(query.limit).execute();
      return rows.map((r) => ({ id: Number(r.id), companyId: Number(r.company_id) }));
    },

    async lastStatusId() {
      const row = await db.selectFrom('order_statuses').select((eb) => eb.fn.max<number | null>('id').as('id')).executeTakeFirstOrThrow();
      return Number(row.id ?? 0);
    },

    async reachedStatuses(afterStatusId, keys, companyId) {
      if (keys.length === 0) return [];
      const rows = await db
        .selectFrom('order_statuses as s')
        .innerJoin('orders as o', 'o.id', 's.order_id')
        .select(['s.order_id', 's.key', 'o.company_id', 'o.client_number'])
        .where('s.id', '>', afterStatusId)
        .where('s.key', 'in', [...keys])
        .whereRef('o.status_key', '=', 's.key')
        .where('o.state', '=', 'active')
        .$if(companyId !== undefined, (qb) => qb.where('o.company_id', '=', companyId!))
        .orderBy('s.order_id')
        .orderBy('s.id')
        .execute();
      const seen = new Set<number>();
      const reached = [];
      for (const r of rows) {
        const orderId = Number(r.order_id);
        if (seen.has(orderId)) continue;
        seen.add(orderId);
        reached.push({ orderId, companyId: Number(r.company_id), clientNumber: r.client_number, key: r.key });
      }
      return reached;
    },

    async recordRefreshRun(run, keep) {
      await db.transaction().execute(async (trx) => {
        const { id } = await trx
          .insertInto('refresh_runs')
          .values({
            company_id: run.companyId, trigger: run.trigger, started_at: run.startedAt, finished_at: run.finishedAt,
            checked: run.checked, changed: run.changed, statuses: run.statuses, failed: run.failed, error: run.error,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx.deleteFrom('refresh_runs').where('id', '<=', Number(id) - keep).execute();
      });
    },

    async lastRefreshRun(companyId) {
      const row = await db
        .selectFrom('refresh_runs')
        .selectAll()
        .where((eb) => (companyId === null ? eb('company_id', 'is', null) : eb.or([eb('company_id', 'is', null), eb('company_id', '=', companyId)])))
        .orderBy('finished_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!row) return null;
      const run: RefreshRun = {
        companyId: row.company_id === null ? null : Number(row.company_id), trigger: row.trigger, startedAt: Number(row.started_at), finishedAt: Number(row.finished_at),
        checked: Number(row.checked), changed: Number(row.changed), statuses: Number(row.statuses), failed: Number(row.failed), error: row.error,
      };
      return run;
    },
  };
}

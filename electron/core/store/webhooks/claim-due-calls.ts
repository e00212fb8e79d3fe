import type { Db } from '../database';
import type { DueWebhookCall } from './webhooks-store';

/**
 * The calls due at `now`, each with its attempt counted and its next one moved on (the claim: nobody takes the call
 * again before then), in one transaction. `lockRows` (PostgreSQL, several instances on the queue): the due rows are
 * locked as they are read, FOR UPDATE SKIP LOCKED, so a call another instance is claiming at the same moment is left
 * to it instead of being claimed twice; SQLite's one app needs no lock and has no such clause.
 */
export function claimDueCalls(db: Db, lockRows: boolean, now: number, limit: number, retryDelays: readonly number[], leaseMs: number): Promise<DueWebhookCall[]> {
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .select(['d.id', 'd.attempts', 'd.next_attempt_at', 'd.status_id', 'w.id as webhook_id', 'w.uuid', 'w.url', 'w.secret', 'w.company_id'])
      .where('d.state', '=', 'pending')
      .where('d.next_attempt_at', '<=', now)
      .orderBy('d.next_attempt_at')
      .orderBy('d.id')
      .limit(limit)
      .$if(lockRows, (qb) => qb.forUpdate('d').skipLocked())
      .execute();
    const claimed: DueWebhookCall[] = [];
    for (const d of due) {
      const attempt = d.attempts + 1;
      const until = now + (retryDelays[attempt - 1] ?? leaseMs);
      await trx.updateTable('webhook_deliveries').set({ attempts: attempt, next_attempt_at: until }).where('id', '=', d.id).execute();
      claimed.push({ deliveryId: d.id, attempt, statusId: d.status_id, until, dueAt: d.next_attempt_at, webhook: { id: d.webhook_id, uuid: d.uuid, url: d.url, secret: d.secret, companyId: d.company_id } });
    }
    return claimed;
  });
}

import { storedMessage } from '../../../../shared/messages';
import { sql, type Selectable } from 'kysely';
import type { OpenedDatabase, TransactionLock } from '../database';
import type { WebhooksTable } from '../schema';
import { isUniqueViolation } from '../storage-errors';
import { claimDueCalls } from './claim-due-calls';
import type { Webhook, WebhookAttemptRecord, WebhooksStore } from './webhooks-store';

const toWebhook = (r: Selectable<WebhooksTable>): Webhook => ({
  id: r.id, uuid: r.uuid, companyId: r.company_id, type: r.type, url: r.url, secret: r.secret, createdAt: r.created_at,
});

/** `lock`: taken per company when a webhook is added, so that two at once cannot both pass the limit (see TransactionLock). */
export function createSqliteWebhooksStore({ db }: OpenedDatabase, lock?: TransactionLock): WebhooksStore {
  const sameWebhook = (w: { companyId: number; type: Webhook['type']; url: string }) =>
    db.selectFrom('webhooks').selectAll().where('company_id', '=', w.companyId).where('type', '=', w.type).where('url', '=', w.url).executeTakeFirst();

  const store: WebhooksStore = {
    async webhook(companyId, uuid) {
      const row = await db.selectFrom('webhooks').selectAll().where('uuid', '=', uuid).where('company_id', '=', companyId).executeTakeFirst();
      return row && toWebhook(row);
    },

    async ensureWebhook(webhook, max) {
      const existing = await sameWebhook(webhook);
      if (existing) return toWebhook(existing);
      try {
        const row = await db.transaction().execute(async (trx) => {
          await lock?.(trx, `webhooks:${webhook.companyId}`);
          const { count } = await trx.selectFrom('webhooks').select((eb) => eb.fn.countAll<number>().as('count')).where('company_id', '=', webhook.companyId).executeTakeFirstOrThrow();
          if (count >= max) return 'full' as const;
          return trx
            .insertInto('webhooks')
            .values({ uuid: webhook.uuid, company_id: webhook.companyId, type: webhook.type, url: webhook.url, secret: webhook.secret, created_at: webhook.createdAt })
            .returningAll()
            .executeTakeFirstOrThrow();
        });
        return row === 'full' ? row : toWebhook(row);
      } catch (error) {
        // Registered by a call at the same moment: that one is the webhook.
        const raced = isUniqueViolation(error) ? await sameWebhook(webhook) : undefined;
        if (!raced) throw error;
        return toWebhook(raced);
      }
    },

    async webhooks(companyId, page) {
      const base = db.selectFrom('webhooks').where('company_id', '=', companyId);
      const [{ total }, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
        base.selectAll().orderBy('id').limit(page.limit).offset(page.offset).execute(),
      ]);
      return { total: Number(total), rows: rows.map(toWebhook) };
    },

    async allWebhooks() {
      const rows = await db
        .selectFrom('webhooks as w')
        .innerJoin('companies as c', 'c.id', 'w.company_id')
        .selectAll('w')
        .select('c.name as company_name')
        .select((eb) =>
          eb
            .selectFrom('webhook_deliveries as d')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('d.webhook_id', '=', 'w.id')
            .where('d.state', '=', 'pending')
            .as('waiting'),
        )
        .orderBy('c.id')
        .orderBy('w.id')
        .execute();
      return rows.map((r) => ({ ...toWebhook(r), companyName: r.company_name, waiting: Number(r.waiting ?? 0) }));
    },

    async attempts(webhookIds, perWebhook, offset = 0) {
      const found = new Map<number, WebhookAttemptRecord[]>(webhookIds.map((id) => [id, []]));
      if (webhookIds.length === 0) return found;
      const numbered = db
        .selectFrom('webhook_attempts as a')
        .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
        .select(['a.id', 'a.webhook_id', 'a.at', 'a.delivery_id', 'a.http_status', 'a.error', 'a.error_message', 'd.status_id', sql<number>`row_number() OVER (PARTITION BY a.webhook_id ORDER BY a.id DESC)`.as('n')])
        .where('a.webhook_id', 'in', webhookIds);
      const rows = await db.selectFrom(numbered.as('t')).selectAll().where('t.n', '>', offset).where('t.n', '<=', offset + perWebhook).orderBy('t.id', 'desc').execute();
      for (const r of rows) {
        found.get(r.webhook_id)!.push({
          id: r.id, webhookId: r.webhook_id, deliveryId: r.delivery_id, at: r.at, httpStatus: r.http_status, error: r.error, errorMessage: storedMessage(r.error_message), statusId: r.status_id,
        });
      }
      return found;
    },

    async attemptCount(webhookId) {
      const { total } = await db
        .selectFrom('webhook_attempts')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where('webhook_id', '=', webhookId)
        .executeTakeFirstOrThrow();
      return Number(total);
    },

    async deleteWebhook(id) {
      await db.deleteFrom('webhooks').where('id', '=', id).execute(); // its calls and attempts go with it (ON DELETE CASCADE)
    },

    claimDueCalls: (now, limit, retryDelays, leaseMs) => claimDueCalls(db, false, now, limit, retryDelays, leaseMs),

    async giveBack(call) {
      await db
        .updateTable('webhook_deliveries')
        .set({ attempts: call.attempt - 1, next_attempt_at: call.dueAt })
        .where('id', '=', call.deliveryId)
        .where('state', '=', 'pending')
        .where('attempts', '=', call.attempt)
        .execute();
    },

    async hasDueCalls(now) {
      const row = await db.selectFrom('webhook_deliveries').select('id').where('state', '=', 'pending').where('next_attempt_at', '<=', now).limit(1).executeTakeFirst();
      return row !== undefined;
    },

    async recordAttempt(call, attempt) {
      await db.transaction().execute(async (trx) => {
        const still = await trx.selectFrom('webhook_deliveries').select('id').where('id', '=', call.deliveryId).executeTakeFirst();
        if (!still) return;
        await trx
          .insertInto('webhook_attempts')
          .values({
            delivery_id: call.deliveryId, webhook_id: call.webhookId, at: attempt.at, http_status: attempt.httpStatus,
            error: attempt.error?.message ?? null, error_message: attempt.error && JSON.stringify({ key: attempt.error.key, params: attempt.error.params }),
          })
          .execute();
        if (attempt.finished) await trx.updateTable('webhook_deliveries').set({ state: attempt.finished, finished_at: attempt.at }).where('id', '=', call.deliveryId).execute();
      });
    },

    async forgetFinished(before) {
      await db.deleteFrom('webhook_deliveries').where('state', '!=', 'pending').where('finished_at', '<', before).execute();
    },
  };
  return store;
}

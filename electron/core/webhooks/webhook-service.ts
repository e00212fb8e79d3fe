import { randomUUID } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import { formatTimestamp } from '../../../shared/time';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import { notFound, validationError } from '../errors';
import { bareHost, isLocalLiteral } from '../net/public-lookup';
import type { Db } from '../store/database';
import type { WebhooksTable } from '../store/schema';
import { newSecret } from './signature';
import { webhookTypes, type WebhookAttempt, type WebhookRow } from '../../../shared/contract/webhooks';

export type WebhookType = (typeof webhookTypes)[number];

/** Webhooks one company may have: each status change is one call per webhook. */
export const maxWebhooksPerCompany = 20;
/** Attempts shown with each webhook in the list. */
export const lastAttemptsShown = 5;

/** Names that always mean this computer: refused at registration unless local addresses are allowed. */
const localNames = /^(localhost|localhost\.localdomain|ip6-localhost|ip6-loopback)$|\.localhost$/i;

/**
 * The company's status webhooks: registered by its API client (POST /webhooks), listed with their last
 * attempts, removed. The calls themselves are made by webhook-delivery.ts.
 */
export function createWebhookService({ db, clock, allowLocal }: { db: Db; clock: Clock; allowLocal: () => Promise<boolean> }) {
  async function find(ctx: CallContext, uuid: string): Promise<Selectable<WebhooksTable>> {
    const row = await db.selectFrom('webhooks').selectAll().where('uuid', '=', uuid).where('company_id', '=', ctx.companyId).executeTakeFirst();
    // Another company's webhook is as unknown as one that never was.
    if (!row) throw notFound(`No webhook ${uuid}`);
    return row;
  }

  async function attemptsOf(webhookIds: number[], perWebhook: number, offset = 0): Promise<Map<number, WebhookAttempt[]>> {
    const found = new Map<number, WebhookAttempt[]>(webhookIds.map((id) => [id, []]));
    if (webhookIds.length === 0) return found;
    const numbered = db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .leftJoin('order_statuses as s', 's.id', 'd.status_id')
      .select(['a.id', 'a.webhook_id', 'a.at', 'a.delivery_id', 'a.http_status', 'a.error', 's.order_id', 's.key', sql<number>`row_number() OVER (PARTITION BY a.webhook_id ORDER BY a.id DESC)`.as('n')])
      .where('a.webhook_id', 'in', webhookIds);
    const rows = await db
      .selectFrom(numbered.as('t'))
      .selectAll()
      .where('t.n', '>', offset)
      .where('t.n', '<=', offset + perWebhook)
      .orderBy('t.id', 'desc')
      .execute();
    for (const r of rows) {
      found.get(r.webhook_id)!.push({
        at: formatTimestamp(r.at),
        deliveryId: r.delivery_id,
        orderId: r.order_id === null ? '' : String(r.order_id),
        statusKey: r.key ?? '',
        httpStatus: r.http_status,
        error: r.error,
        delivered: r.error === null && r.http_status !== null && r.http_status >= 200 && r.http_status < 300,
      });
    }
    return found;
  }

  const rowOf = (w: Selectable<WebhooksTable>, attempts: WebhookAttempt[]): WebhookRow => ({
    uuid: w.uuid,
    url: w.url,
    type: w.type,
    created: formatTimestamp(w.created_at),
    lastAttempts: attempts,
  });

  async function checkUrl(url: string) {
    if (await allowLocal()) return;
    const host = bareHost(new URL(url));
    if (localNames.test(host) || isLocalLiteral(host)) {
      throw validationError([{ field: 'url', message: 'must be a public internet address: this computer and local networks are allowed only when the shop\'s owner allows them in Settings → Local API' }]);
    }
  }

  return {
    /**
     * POST /webhooks: a new webhook with its own secret, or the company's existing one for the same url and
     * type (a site that registers on every save gets one webhook, not many). The secret is answered here only.
     */
    async register(ctx: CallContext, input: { url: string; type: WebhookType }): Promise<Omit<WebhookRow, 'lastAttempts'> & { secret: string }> {
      await checkUrl(input.url);
      const existing = await db
        .selectFrom('webhooks')
        .selectAll()
        .where('company_id', '=', ctx.companyId)
        .where('type', '=', input.type)
        .where('url', '=', input.url)
        .executeTakeFirst();
      const row =
        existing ??
        (await db.transaction().execute(async (trx) => {
          const { count } = await trx.selectFrom('webhooks').select((eb) => eb.fn.countAll<number>().as('count')).where('company_id', '=', ctx.companyId).executeTakeFirstOrThrow();
          if (count >= maxWebhooksPerCompany) {
            throw validationError([{ field: 'url', message: `at most ${maxWebhooksPerCompany} webhooks per company: delete one first` }]);
          }
          return trx
            .insertInto('webhooks')
            .values({ uuid: randomUUID(), company_id: ctx.companyId, type: input.type, url: input.url, secret: newSecret(), created_at: clock.now() })
            .returningAll()
            .executeTakeFirstOrThrow();
        }));
      const { lastAttempts: _none, ...answer } = rowOf(row, []);
      return { ...answer, secret: row.secret };
    },

    /** GET /webhooks: the company's webhooks, oldest first, each with its last attempts; never their secrets. */
    async list(ctx: CallContext, page: { offset: number; limit: number }) {
      const base = db.selectFrom('webhooks').where('company_id', '=', ctx.companyId);
      const [{ total }, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
        base.selectAll().orderBy('id').limit(page.limit).offset(page.offset).execute(),
      ]);
      const attempts = await attemptsOf(rows.map((r) => r.id), lastAttemptsShown);
      return { rows: rows.map((r) => rowOf(r, attempts.get(r.id)!)), meta: { total, offset: page.offset, limit: page.limit } };
    },

    /** Settings → Local API (the owner's): every company's webhooks, how many calls wait, their last attempts. */
    async overview() {
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
      const attempts = await attemptsOf(rows.map((r) => r.id), lastAttemptsShown);
      return rows.map((r) => ({ ...rowOf(r, attempts.get(r.id)!), companyName: r.company_name, waiting: Number(r.waiting ?? 0) }));
    },

    /** GET /webhooks/{uuid}/attempts: one page of its attempts, newest first. */
    async attempts(ctx: CallContext, uuid: string, page: { offset: number; limit: number }) {
      const webhook = await find(ctx, uuid);
      const { total } = await db
        .selectFrom('webhook_attempts')
        .select((eb) => eb.fn.countAll<number>().as('total'))
        .where('webhook_id', '=', webhook.id)
        .executeTakeFirstOrThrow();
      const rows = (await attemptsOf([webhook.id], page.limit, page.offset)).get(webhook.id)!;
      return { rows, meta: { total, offset: page.offset, limit: page.limit } };
    },

    /** DELETE /webhooks/{uuid}: gone with its calls still to make and its attempts. */
    async remove(ctx: CallContext, uuid: string): Promise<{ uuid: string; deleted: true }> {
      const webhook = await find(ctx, uuid);
      await db.deleteFrom('webhooks').where('id', '=', webhook.id).execute();
      return { uuid, deleted: true };
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;

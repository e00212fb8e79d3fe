import { randomUUID } from 'node:crypto';
import { said } from '../../../shared/messages';
import { formatTimestamp } from '../../../shared/time';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import { notFound, validationError } from '../errors';
import { bareHost, isLocalLiteral } from '../net/public-lookup';
import type { OrdersStore, StatusRecord } from '../store/orders/orders-store';
import type { Webhook, WebhookAttemptRecord, WebhooksStore, WebhookType } from '../store/webhooks/webhooks-store';
import { newSecret } from './signature';
import type { AppWebhookAttempt, WebhookAttempt, WebhookRow } from '../../../shared/contract/webhooks';

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
export function createWebhookService(deps: { webhooks: WebhooksStore; orders: Pick<OrdersStore, 'statusesById'>; clock: Clock; allowLocal: () => Promise<boolean> }) {
  const { webhooks, clock, allowLocal } = deps;
  async function find(ctx: CallContext, uuid: string): Promise<Webhook> {
    const webhook = await webhooks.webhook(ctx.companyId, uuid);
    // Another company's webhook is as unknown as one that never was.
    if (!webhook) throw notFound(said('notFound.webhook', { uuid }));
    return webhook;
  }

  const attemptView = (a: WebhookAttemptRecord, status: StatusRecord | undefined): WebhookAttempt => ({
    at: formatTimestamp(a.at),
    deliveryId: a.deliveryId,
    orderId: status ? String(status.orderId) : '',
    statusKey: status?.key ?? '',
    httpStatus: a.httpStatus,
    error: a.error,
    delivered: a.error === null && a.httpStatus !== null && a.httpStatus >= 200 && a.httpStatus < 300,
  });

  /** The webhooks' attempts with the statuses they carried (a status that is gone shows as none). */
  async function attemptsOf(webhookIds: number[], perWebhook: number, offset: number) {
    const found = await webhooks.attempts(webhookIds, perWebhook, offset);
    const statusIds = [...found.values()].flatMap((list) => list.flatMap((a) => (a.statusId === null ? [] : [a.statusId])));
    const statuses = await deps.orders.statusesById(statusIds);
    const statusOf = (a: WebhookAttemptRecord) => (a.statusId === null ? undefined : statuses.get(a.statusId));
    return { found, statusOf };
  }

  async function lastAttempts(webhookIds: number[], perWebhook: number, offset = 0): Promise<Map<number, WebhookAttempt[]>> {
    const { found, statusOf } = await attemptsOf(webhookIds, perWebhook, offset);
    return new Map([...found].map(([id, attempts]) => [id, attempts.map((a) => attemptView(a, statusOf(a)))]));
  }

  const rowOf = (w: Webhook, attempts: WebhookAttempt[]): WebhookRow => ({
    uuid: w.uuid,
    url: w.url,
    type: w.type,
    created: formatTimestamp(w.createdAt),
    lastAttempts: attempts,
  });

  async function checkUrl(url: string) {
    if (await allowLocal()) return;
    const host = bareHost(new URL(url));
    if (localNames.test(host) || isLocalLiteral(host)) {
      throw validationError([{ field: 'url', ...said('webhookReg.notPublic') }]);
    }
  }

  return {
    /**
     * POST /webhooks: a new webhook with its own secret, or the company's existing one for the same url and
     * type (a site that registers on every save gets one webhook, not many). The secret is answered here only.
     */
    async register(ctx: CallContext, input: { url: string; type: WebhookType }): Promise<Omit<WebhookRow, 'lastAttempts'> & { secret: string }> {
      await checkUrl(input.url);
      const row = await webhooks.ensureWebhook(
        { uuid: randomUUID(), companyId: ctx.companyId, type: input.type, url: input.url, secret: newSecret(), createdAt: clock.now() },
        maxWebhooksPerCompany,
      );
      if (row === 'full') throw validationError([{ field: 'url', ...said('webhookReg.tooMany', { max: maxWebhooksPerCompany }) }]);
      const { lastAttempts: _none, ...answer } = rowOf(row, []);
      return { ...answer, secret: row.secret };
    },

    /** GET /webhooks: the company's webhooks, oldest first, each with its last attempts; never their secrets. */
    async list(ctx: CallContext, page: { offset: number; limit: number }) {
      const { total, rows } = await webhooks.webhooks(ctx.companyId, page);
      const attempts = await lastAttempts(rows.map((r) => r.id), lastAttemptsShown);
      return { rows: rows.map((r) => rowOf(r, attempts.get(r.id)!)), meta: { total, offset: page.offset, limit: page.limit } };
    },

    /** Settings → Local API (the owner's): every company's webhooks, how many calls wait, their last attempts. */
    async overview() {
      const rows = await webhooks.allWebhooks();
      const { found, statusOf } = await attemptsOf(rows.map((r) => r.id), lastAttemptsShown, 0);
      // The window's own list: each reason also by key (the interface keeps its English `error`).
      const withReasons = (id: number): AppWebhookAttempt[] => found.get(id)!.map((a) => ({ ...attemptView(a, statusOf(a)), errorMessage: a.errorMessage }));
      return rows.map((r) => ({ ...rowOf(r, []), lastAttempts: withReasons(r.id), companyName: r.companyName, waiting: r.waiting }));
    },

    /** GET /webhooks/{uuid}/attempts: one page of its attempts, newest first. */
    async attempts(ctx: CallContext, uuid: string, page: { offset: number; limit: number }) {
      const webhook = await find(ctx, uuid);
      const total = await webhooks.attemptCount(webhook.id);
      const rows = (await lastAttempts([webhook.id], page.limit, page.offset)).get(webhook.id)!;
      return { rows, meta: { total, offset: page.offset, limit: page.limit } };
    },

    /** DELETE /webhooks/{uuid}: gone with its calls still to make and its attempts. */
    async remove(ctx: CallContext, uuid: string): Promise<{ uuid: string; deleted: true }> {
      const webhook = await find(ctx, uuid);
      await webhooks.deleteWebhook(webhook.id);
      return { uuid, deleted: true };
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;

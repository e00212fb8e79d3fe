import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { draftSaveSchema, Draft, DraftSubmitResult, DraftSummary } from '../../../shared/schemas/drafts';
import { orderCreateSchema } from '../../../shared/schemas/order';
import { formatTimestamp } from '../../../shared/time';
import type { Clock } from '../clock';
import type { CallContext } from '../companies/company-service';
import { AppError, fieldErrors, notFound, validationError } from '../errors';
import type { EventBus } from '../events';
import type { OrderService } from '../orders/order-service';
import type { ProviderRegistry } from '../providers/registry';
import type { Db } from '../store/database';

export interface DraftServiceDeps {
  db: Db;
  clock: Clock;
  orders: OrderService;
  providers: ProviderRegistry;
  events: EventBus;
}

const draftNotFound = (id: string) => notFound(`Draft ${id} was not found`);

/** A string at `path` of the form, trimmed and cut to fit a list cell; null when absent or not text. */
function textAt(data: Record<string, unknown>, path: string[]): string | null {
  let node: unknown = data;
  for (const key of path) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  if (typeof node === 'number') node = String(node);
  if (typeof node !== 'string' || !node.trim()) return null;
  return node.trim().slice(0, 255);
}

export const newDraftId = () => `d-${randomBytes(9).toString('base64url')}`;

/** The columns the drafts list reads, taken from a draft's data. */
export const draftSummaryColumns = (data: Record<string, unknown>) => ({
  client_number: textAt(data, ['order', 'clientNumber']),
  recipient: textAt(data, ['recipient', 'contactName']),
  provider_key: textAt(data, ['order', 'providerKey']),
});

/**
 * Order drafts: the form as typed, kept per company. A save is one upsert of one row (cheap enough for
 * every debounced keystroke); submit runs the same rules as orders.create.
 */
export function createDraftService({ db, clock, orders, providers, events }: DraftServiceDeps) {
  async function find(ctx: CallContext, id: string) {
    const row = await db.selectFrom('drafts').selectAll().where('company_id', '=', ctx.companyId).where('id', '=', id).executeTakeFirst();
    if (!row) throw draftNotFound(id);
    return row;
  }

  const remove = (ctx: CallContext, id: string) =>
    db.deleteFrom('drafts').where('company_id', '=', ctx.companyId).where('id', '=', id).executeTakeFirst();

  /** One draft into an order, or the reason why not (the draft then stays as it is). */
  async function submitOne(ctx: CallContext, id: string): Promise<DraftSubmitResult['results'][number]> {
    try {
      const row = await find(ctx, id);
      const raw = JSON.parse(row.data) as unknown;
      const parsed = orderCreateSchema.safeParse(raw);
      if (!parsed.success) throw validationError(fieldErrors(parsed.error, raw));
      const created = await orders.create(ctx, parsed.data);
      // orders.create owns its transaction, so the draft goes right after the commit. Should the app die in
      // between, submitting the draft again is refused as a duplicate clientNumber: never a second order.
      await remove(ctx, id);
      return { id, ok: true, orderId: created.orderId, created: created.created };
    } catch (error) {
      if (error instanceof AppError) return { id, ok: false, error: error.body };
      throw error;
    }
  }

  return {
    /** Inserts or replaces the draft; the data is kept exactly as the form sent it. */
    async save(ctx: CallContext, input: z.output<typeof draftSaveSchema>): Promise<{ id: string; savedAt: string }> {
      const id = input.id ?? newDraftId();
      const now = clock.now();
      const data = JSON.stringify(input.data);
      const columns = draftSummaryColumns(input.data);
      await db
        .insertInto('drafts')
        .values({ company_id: ctx.companyId, id, data, ...columns, created_at: now, updated_at: now })
        .onConflict((oc) => oc.columns(['company_id', 'id']).doUpdateSet({ data, ...columns, updated_at: now }))
        .execute();
      return { id, savedAt: formatTimestamp(now) };
    },

    /** The company's drafts, last saved first. */
    async list(ctx: CallContext, query: { limit: number; offset: number }): Promise<{ total: number; rows: DraftSummary[] }> {
      const base = db.selectFrom('drafts').where('company_id', '=', ctx.companyId);
      const [rows, total] = await Promise.all([
        base
          .select(['id', 'client_number', 'recipient', 'provider_key', 'created_at', 'updated_at'])
          .orderBy('updated_at', 'desc')
          .orderBy('id')
          .limit(query.limit)
          .offset(query.offset)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return {
        total: Number(total.n),
        rows: rows.map((r) => ({
          id: r.id,
          clientNumber: r.client_number,
          recipient: r.recipient,
          providerKey: r.provider_key,
          serviceName: r.provider_key ? (providers.get(r.provider_key)?.info.name ?? null) : null,
          created: formatTimestamp(r.created_at),
          updated: formatTimestamp(r.updated_at),
        })),
      };
    },

    async get(ctx: CallContext, id: string): Promise<Draft> {
      const row = await find(ctx, id);
      return { id: row.id, data: JSON.parse(row.data), created: formatTimestamp(row.created_at), updated: formatTimestamp(row.updated_at) };
    },

    async delete(ctx: CallContext, id: string): Promise<{ id: string; deleted: string }> {
      const result = await remove(ctx, id);
      if (Number(result.numDeletedRows) === 0) throw draftNotFound(id);
      return { id, deleted: formatTimestamp(clock.now()) };
    },

    /** Each draft through the order rules, one after another (a clientNumber twice: the second is refused). */
    async submit(ctx: CallContext, ids: string[]): Promise<DraftSubmitResult> {
      const results: DraftSubmitResult['results'] = [];
      for (const id of [...new Set(ids)]) results.push(await submitOne(ctx, id));
      const created = results.filter((r) => r.ok).length;
      if (created) events.publish({ type: 'drafts.changed', companyId: ctx.companyId });
      return { created, failed: results.length - created, results };
    },
  };
}

export type DraftService = ReturnType<typeof createDraftService>;

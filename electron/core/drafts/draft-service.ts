import { randomBytes } from 'node:crypto';
import { said } from '../../../shared/messages';
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
import type { DraftsStore } from '../store/drafts/drafts-store';

export interface DraftServiceDeps {
  drafts: DraftsStore;
  clock: Clock;
  orders: OrderService;
  providers: ProviderRegistry;
  events: EventBus;
}

const draftNotFound = (id: string) => notFound(said('notFound.draft', { id }));

export const newDraftId = () => `d-${randomBytes(9).toString('base64url')}`;

/**
 * Order drafts: the form as typed, kept per company. A save is one upsert of one row (cheap enough for
 * every debounced keystroke); submit runs the same rules as orders.create.
 */
export function createDraftService({ drafts, clock, orders, providers, events }: DraftServiceDeps) {
  async function find(ctx: CallContext, id: string) {
    const draft = await drafts.draft(ctx.companyId, id);
    if (!draft) throw draftNotFound(id);
    return draft;
  }

  /** One draft into an order, or the reason why not (the draft then stays as it is). */
  async function submitOne(ctx: CallContext, id: string): Promise<DraftSubmitResult['results'][number]> {
    try {
      const raw = (await find(ctx, id)).data;
      const parsed = orderCreateSchema.safeParse(raw);
      if (!parsed.success) throw validationError(fieldErrors(parsed.error, raw));
      const created = await orders.create(ctx, parsed.data);
      // orders.create owns its transaction, so the draft goes right after the commit. Should the app die in
      // between, submitting the draft again is refused as a duplicate clientNumber: never a second order.
      await drafts.deleteDraft(ctx.companyId, id);
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
      await drafts.saveDraft(ctx.companyId, { id, data: input.data, at: now });
      return { id, savedAt: formatTimestamp(now) };
    },

    /** The company's drafts, last saved first. */
    async list(ctx: CallContext, query: { limit: number; offset: number }): Promise<{ total: number; rows: DraftSummary[] }> {
      const { total, rows } = await drafts.drafts(ctx.companyId, query);
      return {
        total,
        rows: rows.map((d) => ({
          id: d.id,
          clientNumber: d.clientNumber,
          recipient: d.recipient,
          providerKey: d.providerKey,
          serviceName: d.providerKey ? (providers.get(d.providerKey)?.info.name ?? null) : null,
          created: formatTimestamp(d.createdAt),
          updated: formatTimestamp(d.updatedAt),
        })),
      };
    },

    async get(ctx: CallContext, id: string): Promise<Draft> {
      const draft = await find(ctx, id);
      return { id: draft.id, data: draft.data, created: formatTimestamp(draft.createdAt), updated: formatTimestamp(draft.updatedAt) };
    },

    async delete(ctx: CallContext, id: string): Promise<{ id: string; deleted: string }> {
      if (!(await drafts.deleteDraft(ctx.companyId, id))) throw draftNotFound(id);
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

import { storedMessage } from '../../../shared/messages';
import { formatTimestamp } from '../../../shared/time';
import type { CallContext } from '../companies/company-service';
import type { Db } from '../store/database';

/**
 * The outbox as the company's window shows it (outbox.state() counts every company's jobs and says
 * nothing of times): its pending jobs, the next attempt, the last error.
 */
export async function outboxView(db: Db, ctx: CallContext) {
  const jobs = db.selectFrom('outbox').innerJoin('orders', 'orders.id', 'outbox.order_id').where('orders.company_id', '=', ctx.companyId);
  const [counts, failing] = await Promise.all([
    jobs
      .select((eb) => [
        eb.fn.countAll<number>().as('pending'),
        eb.fn.count<number>('outbox.last_error').as('retrying'),
        eb.fn.min<number | null>('outbox.next_attempt_at').as('next'),
      ])
      .executeTakeFirstOrThrow(),
    jobs.select(['outbox.last_error', 'outbox.last_error_message']).where('outbox.last_error', 'is not', null).orderBy('outbox.next_attempt_at', 'desc').orderBy('outbox.id', 'desc').limit(1).executeTakeFirst(),
  ]);
  const retrying = Number(counts.retrying);
  return {
    pending: Number(counts.pending),
    waitingForConnection: retrying > 0,
    retrying,
    nextAttemptAt: counts.next === null || counts.next === undefined ? null : formatTimestamp(Number(counts.next)),
    lastError: failing?.last_error ?? null,
    lastErrorMessage: storedMessage(failing?.last_error_message),
  };
}

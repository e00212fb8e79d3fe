import type { Selectable, Updateable } from 'kysely';
import { storedMessage } from '../../../../shared/messages';
import type { CourierCallCreate } from '../../../../shared/schemas/courier-call';
import type { OpenedDatabase } from '../database';
import type { CourierCallsTable } from '../schema';
import type { CourierCall, CourierCallAnswer, CourierCallLater, CourierCallsStore } from './courier-calls-store';

type Row = Selectable<CourierCallsTable>;

function toCourierCall(row: Row): CourierCall {
  return {
    id: row.id,
    companyId: row.company_id,
    providerKey: row.provider_key,
    providerConnectId: row.provider_connect_id,
    date: row.date,
    timeStart: row.time_start,
    timeEnd: row.time_end,
    request: JSON.parse(row.request) as CourierCallCreate,
    orderIds: JSON.parse(row.order_ids) as string[],
    state: row.state,
    providerNumber: row.provider_number,
    additionalProviderNumber: row.additional_provider_number,
    error: row.error,
    errorMessage: storedMessage(row.error_message),
    createdAt: row.created_at,
    canceledAt: row.canceled_at,
  };
}

function answerColumns(answer: CourierCallAnswer): Updateable<CourierCallsTable> {
  return answer.state === 'accepted'
    ? { state: 'accepted', provider_number: answer.providerNumber, additional_provider_number: answer.additionalProviderNumber, error: null }
    : { state: answer.state, error: answer.error, error_message: answer.errorMessage ? JSON.stringify(answer.errorMessage) : null };
}

function laterColumns(later: CourierCallLater): Updateable<CourierCallsTable> {
  switch (later.state) {
    case 'accepted':
      return { provider_number: later.providerNumber };
    case 'canceled':
      return { state: 'canceled', canceled_at: later.at };
    case 'refused':
      // A refused call has no number at the service (the table's CHECK: only accepted and canceled calls carry one).
      return { state: 'refused', error: later.error, error_message: null, provider_number: null, additional_provider_number: null };
  }
}

export function createSqliteCourierCallsStore(opened: OpenedDatabase): CourierCallsStore {
  const { db } = opened;
  return {
    async add(call, unanswered) {
      const { id } = await db
        .insertInto('courier_calls')
        .values({
          company_id: call.companyId,
          provider_key: call.providerKey,
          provider_connect_id: call.providerConnectId,
          date: call.date,
          time_start: call.timeStart,
          time_end: call.timeEnd,
          request: JSON.stringify(call.request),
          order_ids: JSON.stringify(call.orderIds),
          state: 'failed',
          error: typeof unanswered === 'string' ? unanswered : unanswered.message,
          error_message: typeof unanswered === 'string' ? null : JSON.stringify({ key: unanswered.key, params: unanswered.params }),
          created_at: call.createdAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    },

    async settle(id, answer) {
      await db.updateTable('courier_calls').set(answerColumns(answer)).where('id', '=', id).execute();
    },

    async find(companyId, id) {
      const row = await db.selectFrom('courier_calls').selectAll().where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
      return row ? toCourierCall(row) : null;
    },

    async page(companyId, { limit, offset }) {
      const rows = await db.selectFrom('courier_calls').selectAll().where('company_id', '=', companyId).orderBy('id', 'desc').limit(limit).offset(offset).execute();
      const { total } = await db.selectFrom('courier_calls').select((eb) => eb.fn.countAll<number>().as('total')).where('company_id', '=', companyId).executeTakeFirstOrThrow();
      return { calls: rows.map(toCourierCall), total: Number(total) };
    },

    async open(today, companyId) {
      let query = db
        .selectFrom('courier_calls')
        .selectAll()
        .where('state', '=', 'accepted')
        .where((eb) => eb.or([eb('provider_number', 'is', null), eb('date', '>=', today)]));
      if (companyId !== undefined) query = query.where('company_id', '=', companyId);
      return (await query.orderBy('id').execute()).map(toCourierCall);
    },

    async update(id, later) {
      const done = await db.updateTable('courier_calls').set(laterColumns(later)).where('id', '=', id).where('state', '=', 'accepted').executeTakeFirst();
      return Number(done.numUpdatedRows) > 0;
    },
  };
}

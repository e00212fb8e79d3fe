import { sql } from 'kysely';
import type { Db } from '../database';
import type { RegistrationToRecord } from './orders-store';
import { messageJson } from './rows';

/**
 * PostgreSQL's record of the registrations a batch of the outbox's calls brought back: one statement for the batch
 * (atomic on its own, so one round trip and no transaction around it), where each registration took four statements
 * in a transaction. It locks the jobs still held by `holder` in job id order, the order every writer of several jobs
 * takes them in (the lease renewal's and the hold's, which skip a locked job instead of waiting: outbox-locks.test.ts),
 * removes them, and leaves each one's numbers and status on its order; a job withdrawn while its call was out is not
 * there, so its result is dropped. Resolves with the jobs recorded, by id.
 */
export async function recordRegistrationsOnPostgres(db: Db, holder: string, registrations: RegistrationToRecord[]): Promise<number[]> {
  if (registrations.length === 0) return [];
  const rows = registrations.map((r) => ({
    job_id: r.jobId, order_id: r.orderId, company_id: r.companyId, provider_number: r.providerNumber, additional_provider_number: r.additionalProviderNumber,
    barcode: r.barcode, tracking_url: r.trackingUrl, key: r.status.key, description: r.status.description ?? null,
    description_message: messageJson(r.status.descriptionMessage), at: r.status.at, provider_code: r.status.providerCode ?? null,
    provider_name: r.status.providerName ?? null, provider_description: r.status.providerDescription ?? null,
    created_provider: r.status.createdProvider ?? null, error_code: r.status.errorCode ?? null,
  }));
  const { rows: recorded } = await sql<{ id: number }>`
    WITH r AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(job_id bigint, order_id bigint, company_id bigint, provider_number text,
        additional_provider_number text, barcode text, tracking_url text, key text, description text, description_message text, at bigint,
        provider_code text, provider_name text, provider_description text, created_provider bigint, error_code text)
    ),
    held AS MATERIALIZED (
      SELECT id FROM outbox WHERE id IN (SELECT job_id FROM r) AND lease_holder = ${holder} ORDER BY id FOR UPDATE
    ),
    removed AS (DELETE FROM outbox WHERE id IN (SELECT id FROM held) RETURNING id),
    done AS (SELECT r.* FROM r JOIN removed ON removed.id = r.job_id),
    statuses AS (
      INSERT INTO order_statuses (order_id, company_id, key, description, description_message, created_at, provider_code, provider_name,
        provider_description, created_provider, error_code)
      SELECT order_id, company_id, key, description, description_message, at, provider_code, provider_name, provider_description, created_provider, error_code
      FROM done ORDER BY job_id
    ),
    numbered AS (
      UPDATE orders SET provider_number = d.provider_number, additional_provider_number = d.additional_provider_number, barcode = d.barcode,
        tracking_url = d.tracking_url, status_key = d.key, status_description = d.description, status_description_message = d.description_message,
        status_changed_at = d.at, updated_at = d.at
      FROM done d WHERE orders.id = d.order_id
    )
    SELECT id FROM removed ORDER BY id`.execute(db);
  return recorded.map((r) => Number(r.id));
}

import { sql } from 'kysely';
import type { Db } from '../database';
import type { OpenedPostgres } from '../postgres';
import type { SandboxStore } from './sandbox-store';
import { createSqliteSandboxStore } from './sqlite';

/**
 * A registration's number on PostgreSQL: one statement reads the highest number of the prefix and books the next
 * (the primary key's index, O(log n)). Registrations run side by side there, so two may read the same highest: the
 * later insert waits for the earlier one's commit on the key, finds it taken and books nothing, and the statement is
 * run again on what is committed now. Each try is one round trip, and no connection of the pool sits waiting for a
 * lock meanwhile (a transaction under an advisory lock took five round trips, and the outbox's parallel calls each held
 * a connection while waiting for it, so the orders being created waited for one).
 */
async function registerOnPostgres(db: Db, shipment: Parameters<SandboxStore['register']>[0], prefix: string): Promise<string> {
  for (;;) {
    const { rows } = await sql<{ provider_number: string }>`
      INSERT INTO sandbox_shipments (provider_number, provider_key, company_id, client_number, payload, registered_at, canceled_at, removed_at)
      SELECT ${prefix} || lpad(next::text, greatest(9, length(next::text)), '0'), ${shipment.providerKey}, ${shipment.companyId}, ${shipment.clientNumber},
        ${JSON.stringify(shipment.order)}, ${shipment.registeredAt}, NULL, NULL
      FROM (SELECT coalesce(max(substr(provider_number, ${prefix.length + 1})::bigint), 0) + 1 AS next FROM sandbox_shipments
        WHERE provider_number >= ${`${prefix}000000000`} AND provider_number <= ${`${prefix}999999999`}) AS highest
      ON CONFLICT (provider_number) DO NOTHING
      RETURNING provider_number`.execute(db);
    if (rows.length > 0) return rows[0].provider_number;
  }
}

/** PostgreSQL's sandbox store: the SQLite store's Kysely queries, but for the numbering of a registration (above). */
export const createPostgresSandboxStore = (opened: OpenedPostgres): SandboxStore => ({
  ...createSqliteSandboxStore(opened),
  register: (shipment, prefix) => registerOnPostgres(opened.db, shipment, prefix),
});

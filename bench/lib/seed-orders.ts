import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { statusNames, type StatusKey } from '../../shared/status-keys';
import { statusesAt } from '../../electron/core/providers/sandbox/timeline';
import { orderPayload } from './fixtures';
import { createRng } from './prng';

const day = 86_400_000;

export interface SeedOrdersOptions {
  companyId: number;
  count: number;
  /** "Now" of the data: the newest order is a moment before it. */
  now: number;
  seed: number;
  /** Orders are spread evenly over this span before `now`, oldest first (ids grow with time). */
  spanMs: number;
  /** clientNumber prefix; numbers are prefix + 6 digits. */
  prefix?: string;
  /**
   * 'history': each order carries every status the sandbox service gave it up to now (a shop whose
   * statuses were refreshed all along). 'uploaded': only the registration, so a refresh has news to fetch.
   */
  statuses: 'history' | 'uploaded';
}

/**
 * Orders written straight into the tables in one transaction: the order row with its payload, its
 * status history, and the shipment in the sandbox service's books (so tracking finds it). Far faster
 * than going through the service, which is not what these benchmarks measure.
 */

/** A price of the payload as the orders store keeps it beside it (kopecks, null when absent). */
const kopecksOrNull = (rubles: number | null | undefined) => (typeof rubles === 'number' ? Math.round(rubles * 100) : null);

/** One seeded order: its row, its status history and the sandbox's record of the shipment (columns as named in the tables). */
interface SeededOrder {
  order: Record<string, string | number | null>;
  statuses: Record<string, string | number | null>[];
  shipment: Record<string, string | number | null>;
}

/** The seeded orders, in order, `shipmentsBefore` being the sandbox-express shipments already in the books. */
function* seededOrders(options: SeedOrdersOptions, shipmentsBefore: number): Generator<SeededOrder> {
  const rng = createRng(options.seed);
  const prefix = options.prefix ?? 'SHOP-';
  const step = options.spanMs / options.count;
  for (let i = 0; i < options.count; i++) {
    const clientNumber = `${prefix}${String(i + 1).padStart(6, '0')}`;
    const payload = orderPayload(rng, clientNumber);
    const json = JSON.stringify(payload);
    const createdAt = Math.round(options.now - options.spanMs + i * step);
    const registeredAt = Math.min(options.now, createdAt + rng.int(2, 60) * 1000);
    const providerNumber = `SBE${String(shipmentsBefore + i + 1).padStart(9, '0')}`;
    const reached = options.statuses === 'history' ? statusesAt(providerNumber, registeredAt, options.now) : [{ key: 'uploaded' as StatusKey, at: registeredAt }];
    const current = reached[reached.length - 1];
    const status = (key: StatusKey, at: number, provider: boolean) => ({
      company_id: options.companyId, key, description: null, created_at: at,
      provider_code: provider ? key.toUpperCase() : null, provider_name: provider ? statusNames[key].ru : null, created_provider: provider ? at : null,
    });
    yield {
      order: {
        company_id: options.companyId, client_number: clientNumber, provider_key: 'sandbox-express', state: 'active', status_key: current.key,
        status_description: null, status_changed_at: current.at, provider_number: providerNumber, barcode: providerNumber.replace(/\D/g, '').padStart(12, '0'),
        tracking_url: `https://sandbox.shipdesk.invalid/track/${providerNumber}`, recipient_name: payload.recipient.contactName, recipient_phone: payload.recipient.phone,
        recipient_city: payload.recipient.city ?? null, cod_kopecks: Math.round(payload.cost.codCost * 100), assessed_kopecks: Math.round(payload.cost.assessedCost * 100),
        quoted_delivery_kopecks: kopecksOrNull(payload.cost.quotedDeliveryCost), delivery_kopecks: kopecksOrNull(payload.cost.deliveryCost),
        payload: json, created_at: createdAt, updated_at: current.at,
      },
      statuses: [status('uploading', createdAt, false), ...reached.map((s) => status(s.key, s.at, true))],
      shipment: { provider_number: providerNumber, provider_key: 'sandbox-express', company_id: options.companyId, client_number: clientNumber, payload: json, registered_at: registeredAt },
    };
  }
}

const insertSql = (table: string, row: Record<string, unknown>) =>
  `INSERT INTO ${table} (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row).map(() => '?').join(', ')})`;

/** Writes the seeded orders into a SQLite database in one transaction, with prepared statements. */
export function seedOrders(sqlite: BetterSqlite3.Database, options: SeedOrdersOptions): { firstId: number; lastId: number } {
  // The sandbox numbers its shipments by count per service; continue from what is there.
  const already = (sqlite.prepare(`SELECT count(*) AS n FROM sandbox_shipments WHERE provider_key = 'sandbox-express'`).get() as { n: number }).n;
  const statements = new Map<string, BetterSqlite3.Statement>();
  const insert = (table: string, row: Record<string, string | number | null>) => {
    const text = insertSql(table, row);
    let statement = statements.get(text);
    if (!statement) statements.set(text, (statement = sqlite.prepare(text)));
    return statement.run(...Object.values(row));
  };
  let firstId = 0;
  let lastId = 0;
  sqlite.transaction(() => {
    for (const seeded of seededOrders(options, already)) {
      const orderId = Number(insert('orders', seeded.order).lastInsertRowid);
      if (firstId === 0) firstId = orderId;
      lastId = orderId;
      for (const status of seeded.statuses) insert('order_statuses', { order_id: orderId, ...status });
      insert('sandbox_shipments', seeded.shipment);
    }
  })();
  return { firstId, lastId };
}

/** The same orders through Kysely (PostgreSQL), in one transaction, 500 at a time. */
export async function seedOrdersKysely(db: Kysely<any>, options: SeedOrdersOptions): Promise<void> {
  const { n } = await db.selectFrom('sandbox_shipments').select((eb) => eb.fn.countAll<number>().as('n')).where('provider_key', '=', 'sandbox-express').executeTakeFirstOrThrow();
  const all = [...seededOrders(options, Number(n))];
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < all.length; i += 500) {
      const batch = all.slice(i, i + 500);
      const ids = await trx.insertInto('orders').values(batch.map((b) => b.order)).returning('id').execute();
      const statuses = batch.flatMap((b, j) => b.statuses.map((s) => ({ order_id: Number(ids[j].id), ...s })));
      await trx.insertInto('order_statuses').values(statuses).execute();
      await trx.insertInto('sandbox_shipments').values(batch.map((b) => b.shipment)).execute();
    }
  });
}

export const days = (n: number) => n * day;

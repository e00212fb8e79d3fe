import type BetterSqlite3 from 'better-sqlite3';
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
 * Writes orders straight into the tables in one transaction: the order row with its payload, its
 * status history, and the shipment in the sandbox service's books (so tracking finds it). Far faster
 * than going through the service, which is not what these benchmarks measure.
 */
/** A price of the payload as the orders store keeps it beside it (kopecks, null when absent). */
const kopecksOrNull = (rubles: number | null | undefined) => (typeof rubles === 'number' ? Math.round(rubles * 100) : null);

export function seedOrders(sqlite: BetterSqlite3.Database, options: SeedOrdersOptions): { firstId: number; lastId: number } {
  const rng = createRng(options.seed);
  const prefix = options.prefix ?? 'SHOP-';
  const insertOrder = sqlite.prepare(
    `INSERT INTO orders (company_id, client_number, provider_key, state, status_key, status_description, status_changed_at,
       provider_number, barcode, tracking_url, recipient_name, recipient_phone, recipient_city, cod_kopecks, assessed_kopecks,
       quoted_delivery_kopecks, delivery_kopecks, payload, created_at, updated_at)
     VALUES (?, ?, 'sandbox-express', 'active', ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertStatus = sqlite.prepare(
    `INSERT INTO order_statuses (order_id, company_id, key, description, created_at, provider_code, provider_name, created_provider)
     VALUES (?, ?, ?, NULL, ?, ?, ?, ?)`,
  );
  // The sandbox numbers its shipments by count per service; continue from what is there.
  const already = (sqlite.prepare(`SELECT count(*) AS n FROM sandbox_shipments WHERE provider_key = 'sandbox-express'`).get() as { n: number }).n;
  const insertShipment = sqlite.prepare(
    `INSERT INTO sandbox_shipments (provider_number, provider_key, company_id, client_number, payload, registered_at)
     VALUES (?, 'sandbox-express', ?, ?, ?, ?)`,
  );
  const step = options.spanMs / options.count;
  let firstId = 0;
  let lastId = 0;
  sqlite.transaction(() => {
    for (let i = 0; i < options.count; i++) {
      const clientNumber = `${prefix}${String(i + 1).padStart(6, '0')}`;
      const payload = orderPayload(rng, clientNumber);
      const json = JSON.stringify(payload);
      const createdAt = Math.round(options.now - options.spanMs + i * step);
      const registeredAt = Math.min(options.now, createdAt + rng.int(2, 60) * 1000);
      const providerNumber = `SBE${String(already + i + 1).padStart(9, '0')}`;
      const reached = options.statuses === 'history' ? statusesAt(providerNumber, registeredAt, options.now) : [{ key: 'uploaded' as StatusKey, at: registeredAt }];
      const current = reached[reached.length - 1];
      const info = insertOrder.run(
        options.companyId,
        clientNumber,
        current.key,
        current.at,
        providerNumber,
        providerNumber.replace(/\D/g, '').padStart(12, '0'),
        `https://sandbox.shipdesk.invalid/track/${providerNumber}`,
        payload.recipient.contactName,
        payload.recipient.phone,
        payload.recipient.city ?? null,
        Math.round(payload.cost.codCost * 100),
        Math.round(payload.cost.assessedCost * 100),
        kopecksOrNull(payload.cost.quotedDeliveryCost),
        kopecksOrNull(payload.cost.deliveryCost),
        json,
        createdAt,
        current.at,
      );
      const orderId = Number(info.lastInsertRowid);
      if (i === 0) firstId = orderId;
      lastId = orderId;
      insertStatus.run(orderId, options.companyId, 'uploading', createdAt, null, null, null);
      for (const s of reached) insertStatus.run(orderId, options.companyId, s.key, s.at, s.key.toUpperCase(), statusNames[s.key].ru, s.at);
      insertShipment.run(providerNumber, options.companyId, clientNumber, json, registeredAt);
    }
  })();
  return { firstId, lastId };
}

export const days = (n: number) => n * day;

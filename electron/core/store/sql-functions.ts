import type BetterSqlite3 from 'better-sqlite3';
import { recipientSearchText } from '../../../shared/search-text';

const textOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * Functions the schema's triggers call (migration 0026's search index). Registered on every
 * connection before migrating, so the migrations and every later write can use them.
 */
export function registerSqlFunctions(sqlite: BetterSqlite3.Database): void {
  sqlite.function('order_recipient_search_text', { deterministic: true }, (name, phone, email, city, street, addressString) =>
    recipientSearchText({
      name: textOrNull(name),
      phone: textOrNull(phone),
      email: textOrNull(email),
      city: textOrNull(city),
      street: textOrNull(street),
      addressString: textOrNull(addressString),
    }),
  );
}

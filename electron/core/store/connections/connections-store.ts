import type { ConnectionSettingValue } from '../../../../shared/contract/connections';

/**
 * The shop's accounts with delivery services (provider connections). Secrets arrive sealed (the secret box
 * encrypts them before the store sees them) and leave sealed.
 */

export interface StoredConnection {
  id: number;
  providerKey: string;
  name: string;
  testMode: boolean;
  baseUrl: string | null;
  /** The sealed secrets, or null when none are stored. */
  credentials: string | null;
  /** The kind's non-secret settings by field name; empty when the stored ones cannot be read. */
  settings: Record<string, ConnectionSettingValue>;
  createdAt: number;
  updatedAt: number;
}

export type ConnectionValues = Pick<StoredConnection, 'name' | 'testMode' | 'baseUrl' | 'credentials' | 'settings'>;

export interface ConnectionsStore {
  /** Every connection, oldest first (the oldest of a service is its default). */
  list(): Promise<StoredConnection[]>;
  get(id: number): Promise<StoredConnection | null>;
  /** The id of the service's oldest connection (its default), or null when it has none. */
  defaultOf(providerKey: string): Promise<number | null>;
  create(providerKey: string, values: ConnectionValues, now: number): Promise<number>;
  update(id: number, values: ConnectionValues, now: number): Promise<void>;
  delete(id: number): Promise<void>;
}

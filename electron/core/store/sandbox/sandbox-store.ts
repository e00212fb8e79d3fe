import type { OrderCreate } from '../../../../shared/schemas/order';

/**
 * The built-in sandbox services' own books: the shipments they registered, as a real service keeps them on
 * its side, so "does this clientNumber exist there?" has a true answer across restarts.
 */

export interface SandboxShipment {
  providerNumber: string;
  providerKey: string;
  companyId: number;
  clientNumber: string;
  /** The order as last sent to the service. */
  order: OrderCreate;
  registeredAt: number;
  canceledAt: number | null;
  removedAt: number | null;
}

export interface SandboxStore {
  /** The company's shipment with this clientNumber at the service that is neither canceled nor removed. */
  liveShipment(providerKey: string, companyId: number, clientNumber: string): Promise<SandboxShipment | null>;
  shipment(providerKey: string, providerNumber: string): Promise<SandboxShipment | null>;
  /** The service's shipments among these numbers (unknown ones are left out). */
  shipments(providerKey: string, providerNumbers: string[]): Promise<SandboxShipment[]>;
  /**
   * Books a shipment under the next free number (`prefix` and nine digits), all at once, so several orders
   * registered together never share one; the number.
   */
  register(shipment: Omit<SandboxShipment, 'providerNumber' | 'canceledAt' | 'removedAt'>, prefix: string): Promise<string>;
  update(providerNumber: string, change: { order: OrderCreate; clientNumber: string }, now: number): Promise<void>;
  cancel(providerNumber: string, now: number): Promise<void>;
  remove(providerNumber: string, now: number): Promise<void>;
}

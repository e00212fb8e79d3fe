import type { FieldError } from '../../../shared/errors';
import type { ProviderInfo } from '../../../shared/contract/providers';
import type { OrderCreate } from '../../../shared/schemas/order';
import type { StatusKey } from '../../../shared/status-keys';

/** What an adapter is given for one order. */
export interface ShipmentRequest {
  companyId: number;
  orderId: number;
  clientNumber: string;
  order: OrderCreate;
}

/** The service's numbers for a registered order. */
export interface Registration {
  providerNumber: string;
  additionalProviderNumber?: string | null;
  barcode?: string | null;
  trackingUrl?: string | null;
}

/** One status as the service reports it, already mapped to our status keys. */
export interface ProviderStatus {
  key: StatusKey;
  /** When the service set it (epoch ms). */
  at: number;
  description?: string;
  providerCode?: string;
  providerName?: string;
  providerDescription?: string;
  /** Items bought out on a partial delivery: articul or description → quantity. */
  quantityDelivered?: Record<string, number>;
}

export interface TrackedShipment {
  providerNumber: string;
  request: ShipmentRequest;
}

/**
 * A delivery service adapter. Every call may fail: a refusal of the order's data throws
 * ProviderRejectedError (no retry), anything else transient throws ProviderUnavailableError (retried).
 */
export interface DeliveryProvider {
  readonly info: ProviderInfo;
  /** Checks the order against the service's reference data before it is accepted; returns field errors. */
  check(order: OrderCreate): Promise<FieldError[]>;
  register(request: ShipmentRequest): Promise<Registration>;
  /** Looks the order up by its clientNumber, so a lost reply never registers it twice. */
  find(request: ShipmentRequest): Promise<Registration | null>;
  update?(providerNumber: string, request: ShipmentRequest): Promise<void>;
  cancel?(providerNumber: string, request: ShipmentRequest): Promise<void>;
  remove?(providerNumber: string, request: ShipmentRequest): Promise<void>;
  /** Full status history of each shipment, oldest first. */
  track(shipments: TrackedShipment[]): Promise<Map<string, ProviderStatus[]>>;
}

/** The service refused the order's data; the order goes to uploadingError with errorCode 200. */
export class ProviderRejectedError extends Error {
  constructor(
    readonly description: string,
    readonly errors: FieldError[] = [],
    readonly providerCode?: string,
  ) {
    super(description);
    this.name = 'ProviderRejectedError';
  }
}

/** The service could not be reached or answered 429/5xx; the work is retried with backoff. */
export class ProviderUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderUnavailableError';
  }
}

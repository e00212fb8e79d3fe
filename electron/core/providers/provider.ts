import type { FieldError } from '../../../shared/errors';
import type { CarrierOperation, ProviderInfo } from '../../../shared/contract/providers';
import type { OrderCreate } from '../../../shared/schemas/order';
import type { StatusKey } from '../../../shared/status-keys';
import type { Quote, QuoteRequest } from '../calculator/pricing-provider';
import type { IntervalRequest, TariffSlots } from '../intervals/interval-source';
import type { CarrierReferenceData } from '../lists/carrier-reference';
import type { CourierCalls } from './courier-call';
import type { PostalBatches } from './postal-batches';
import type { MessageRef } from '../../../shared/messages';

/** What an adapter is given for one order. */
export interface ShipmentRequest {
  companyId: number;
  orderId: number;
  clientNumber: string;
  order: OrderCreate;
  /** The service's numbers of the order as stored, once registered (the upstream's orderId, CDEK's uuid). */
  providerNumber?: string | null;
  additionalProviderNumber?: string | null;
}

/** The service's numbers for a registered order. */
export interface Registration {
  providerNumber: string;
  additionalProviderNumber?: string | null;
  barcode?: string | null;
  trackingUrl?: string | null;
  /**
   * When the service registered it (epoch ms, the service's clock), if it says. The `uploaded` status
   * then carries it as createdProvider, so status tracking recognises the service's own record of it.
   */
  registeredAt?: number | null;
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
  /**
   * Items bought out on a partial delivery: item key → quantity, where the key is the item's articul, or
   * its description when it has none (see `itemKey`). Items of the order the map does not name were not bought.
   */
  quantityDelivered?: Record<string, number>;
}

export interface TrackedShipment {
  providerNumber: string;
  /** The service's second number of the order, when it gave one at registration (CDEK: its uuid). */
  additionalProviderNumber?: string | null;
  request: ShipmentRequest;
}

/** The key under which ProviderStatus.quantityDelivered names an item. */
export const itemKey = (item: { articul?: string; description: string }) => item.articul ?? item.description;

/**
 * A delivery service: registered once (providers/registry.ts), it declares what it can do by the methods it
 * has (see operationsOf); everything beyond create, find and track is optional. Adapters map our model to the
 * service's calls and back and talk through the shared transport (transport.ts); they never touch our database.
 *
 * Every call may fail: a refusal of the order's data throws ProviderRejectedError (no retry), anything else
 * transient throws ProviderUnavailableError (retried, after the service's Retry-After when it gave one).
 *
 * The outbox records an attempt before each call, so after a crash or a lost reply a call is made again:
 * `update`, `cancel` and `remove` must be idempotent (cancelling a shipment the service already cancelled,
 * or removing one it already removed, succeeds), and `register` is preceded by `find` on a re-send.
 * `cancel` / `remove` exist only where the service offers them; `update` only where info.capabilities.update.
 */
export interface Carrier {
  readonly info: ProviderInfo;
  /** Checks the order against the service's reference data before it is accepted; returns field errors. */
  check(order: OrderCreate): Promise<FieldError[]>;
  register(request: ShipmentRequest): Promise<Registration>;
  /** Looks the order up by its clientNumber, so a lost reply never registers it twice. */
  find(request: ShipmentRequest): Promise<Registration | null>;
  /** Replaces the data of a registered shipment (the request carries the new data). */
  update?(providerNumber: string, request: ShipmentRequest): Promise<void>;
  /** Cancels a registered shipment; it keeps its number at the service, marked cancelled. */
  cancel?(providerNumber: string, request: ShipmentRequest): Promise<void>;
  /** Deletes a registered shipment (services without update and cancel); registering again gives a new number. */
  remove?(providerNumber: string, request: ShipmentRequest): Promise<void>;
  /**
   * Labels of 1–100 registered shipments as one file (a PDF, or a ZPL stream), where the service prints its
   * own; a format it does not print is a ProviderRejectedError. Services without it get labels drawn by ShipDesk.
   */
  labels?(shipments: TrackedShipment[], format: 'pdf' | 'zpl'): Promise<Uint8Array>;
  /** Full status history of each shipment, oldest first. */
  track(shipments: TrackedShipment[]): Promise<Map<string, ProviderStatus[]>>;
  /**
   * A test service whose statuses follow a fixed schedule: the next status each shipment will reach and
   * when, so the shop can be told why a refresh found nothing new. Shipments at their last status (or
   * canceled, or unknown) are left out.
   */
  schedule?(providerNumbers: string[]): Promise<Map<string, { key: StatusKey; at: number }>>;
  /** The service's own handover act (waybill) for shipments handed over together, as a PDF. */
  handoverAct?(shipments: TrackedShipment[]): Promise<Uint8Array>;
  /** Courier pickups at the shop, where the service takes such calls. */
  courierCalls?: CourierCalls;
  /** Batches of a postal service whose orders get their tracking number only in a batch (Russian Post). */
  batches?: PostalBatches;
  /** Every tariff that can carry the shipment, priced; none when the service cannot. */
  rates?(request: QuoteRequest): Promise<Quote[]>;
  /**
   * What the service is known to refuse of an order before it is asked (cities it does not serve, a tariff's
   * weight, a point's limits), from its own reference data. The import check asks it; a service without it
   * is judged by its rates (orders/service-reach.ts).
   */
  reach?(order: OrderCreate): Promise<FieldError[]>;
  /** Door-delivery intervals per tariff (services with capabilities.intervals fixed or dynamic). */
  intervals?(request: IntervalRequest): Promise<TariffSlots[]>;
  /** Its pickup points (paged) and tariffs, which lists/ stores; the carrier never writes them itself. */
  referenceData?: CarrierReferenceData;
}

/** The former name of Carrier, kept while work in flight still uses it. */
export type DeliveryProvider = Carrier;

/**
 * What a carrier can do through ShipDesk, as /lists/providers shows it: create, find and track always; labels and
 * handover acts always too (ShipDesk draws them for a service without its own); the rest by its methods.
 */
export function operationsOf(carrier: Carrier): CarrierOperation[] {
  const has: [CarrierOperation, boolean][] = [
    ['create', true],
    ['find', true],
    ['update', !!carrier.update && carrier.info.capabilities.update],
    ['cancel', !!carrier.cancel && carrier.info.capabilities.cancel],
    // A service that keeps registered orders (cancel or update) is never asked to delete one (see the outbox).
    ['remove', !!carrier.remove && !carrier.info.capabilities.cancel && !carrier.info.capabilities.update],
    ['track', true],
    ['labels', true],
    ['handoverActs', true],
    ['courierCalls', !!carrier.courierCalls],
    ['batches', !!carrier.batches],
    ['rates', !!carrier.rates],
    ['intervals', !!carrier.intervals && carrier.info.capabilities.intervals !== 'none'],
    ['referenceData', !!carrier.referenceData],
  ];
  return has.filter(([, yes]) => yes).map(([op]) => op);
}

/** A message for a person: the service's or our plain text, or a catalog message (`said(key, params)`) the window translates. */
export type Telling = string | ({ message: string } & MessageRef);
const textOf = (telling: Telling) => (typeof telling === 'string' ? telling : telling.message);
const refOf = (telling: Telling): MessageRef | undefined => (typeof telling === 'string' ? undefined : { key: telling.key, params: telling.params });

/** The service refused the order's data; the order goes to uploadingError with errorCode 200. */
export class ProviderRejectedError extends Error {
  readonly description: string;
  /** The description as data, when it is ours. */
  readonly ref?: MessageRef;

  constructor(
    description: Telling,
    readonly errors: FieldError[] = [],
    readonly providerCode?: string,
  ) {
    super(textOf(description));
    this.name = 'ProviderRejectedError';
    this.description = textOf(description);
    this.ref = refOf(description);
  }
}

/**
 * The service could not be reached or answered 429/5xx; the work is retried with backoff, and not before
 * retryAfterMs when the service said how long to wait (Retry-After).
 */
export class ProviderUnavailableError extends Error {
  readonly retryAfterMs?: number;
  /** The message as data, when it is ours. */
  readonly ref?: MessageRef;
  /** The service's answer (429, 5xx) when it gave one. */
  readonly httpStatus?: number;
  /** Set when no answer came at all: the call timed out, or the service could not be reached. */
  readonly noAnswer?: 'timeout' | 'network';

  constructor(message: Telling, options: { retryAfterMs?: number; httpStatus?: number; noAnswer?: 'timeout' | 'network' } = {}) {
    super(textOf(message));
    this.name = 'ProviderUnavailableError';
    this.ref = refOf(message);
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.httpStatus !== undefined) this.httpStatus = options.httpStatus;
    if (options.noAnswer !== undefined) this.noAnswer = options.noAnswer;
  }
}

/**
 * The service refused the connection's credentials (login/password, key, token: 401/403 at its token or a call).
 * Retried like an outage, so queued orders go out once the connection is fixed; the outbox pauses the connection
 * meanwhile rather than asking again and again, and says what to fix.
 */
export class CredentialsRefusedError extends ProviderUnavailableError {
  constructor(message: Telling) {
    super(message);
    this.name = 'CredentialsRefusedError';
  }
}

import type { TrackedShipment } from './provider';

/** Where the courier comes: the interface's address fields of a courier call. */
export interface PickupAddress {
  countryCode: string;
  city: string;
  postIndex?: string;
  region?: string;
  area?: string;
  street?: string;
  house?: string;
  block?: string;
  office?: string;
  lat?: number;
  lng?: number;
  addressString?: string;
}

/** A courier call as a carrier is asked it. Dates and times are the shop's calendar and clock. */
export interface CourierCallRequest {
  companyId: number;
  /** Our id of the call (the carrier may pass it on as its client number). */
  callId: number;
  providerConnectId?: number;
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM */
  timeStart: string;
  timeEnd: string;
  /** Grams, all the parcels together. */
  weight: number;
  /** Centimetres of the largest parcel, when known. */
  length?: number;
  width?: number;
  height?: number;
  address: PickupAddress;
  companyName?: string;
  contactName: string;
  phone: string;
  email?: string;
  comment?: string;
  /** The registered orders the courier takes (may be empty: a call for parcels not named). */
  shipments: TrackedShipment[];
  /** The shop's date (YYYY-MM-DD) and hour now, for the service's same-day cut-off. */
  today: string;
  hour: number;
}

/**
 * The service's numbers of an accepted call. A service that numbers its calls later (CDEK) gives only its
 * reference (additionalProviderNumber) at first; `refresh` brings the number.
 */
export interface CourierCallRegistration {
  providerNumber: string | null;
  additionalProviderNumber?: string | null;
}

/** A call the service accepted, as it is canceled. */
export interface CourierCallRef extends CourierCallRegistration {
  companyId: number;
  providerConnectId?: number;
}

/** Where an accepted call stands at the service now. */
export type CourierCallProgress =
  | { state: 'accepted'; providerNumber: string | null }
  | { state: 'refused'; reason: string }
  | { state: 'canceled' };

/**
 * The courier-call capability of a carrier. A refusal (a day it does not come, a city it does not serve)
 * throws ProviderRejectedError with the fields at fault; no answer throws ProviderUnavailableError.
 * `cancel` succeeds on a call the service already canceled.
 */
export interface CourierCalls {
  create(request: CourierCallRequest): Promise<CourierCallRegistration>;
  cancel(call: CourierCallRef): Promise<void>;
  /** For a service that settles its calls later: the call's state and number as the service has them now. */
  refresh?(call: CourierCallRef): Promise<CourierCallProgress>;
}

import type { CalculatorParcel } from '../../../shared/schemas/calculator';
import type { ResolvedPlace } from './geo';

/** What a carrier's `rates` is asked to price: one shipment, already resolved to places and kopecks. */
export interface QuoteRequest {
  from: ResolvedPlace;
  to: ResolvedPlace;
  /** Kilometres between the places; null when either cannot be placed on the map. */
  distanceKm: number | null;
  places: CalculatorParcel[];
  assessedKopecks: number;
  codKopecks: number;
  /** The day the service takes the parcel (YYYY-MM-DD, the shop's calendar). */
  pickupDate: string;
}

/** The price and term of one tariff. Money in integer kopecks. */
export interface Quote {
  tariffId: number;
  tariffProviderId: string;
  tariffName: string;
  pickupType: 1 | 2;
  deliveryType: 1 | 2;
  transportKopecks: number;
  insuranceKopecks: number;
  codFeeKopecks: number;
  daysMin: number;
  daysMax: number;
}

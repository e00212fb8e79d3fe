import type { DeliveryInterval } from '../../../shared/schemas/calculator';
import type { ResolvedPlace } from '../calculator/geo';

/** What a carrier's `intervals` is asked. Dates are the shop's calendar (YYYY-MM-DD). */
export interface IntervalRequest {
  from: ResolvedPlace;
  to: ResolvedPlace;
  distanceKm: number | null;
  codKopecks: number;
  /** The day the parcel is handed over: as asked, else today. */
  pickupDate: string;
  /** The day the recipient wants it, if asked. */
  deliveryDate?: string;
  /** The shop's date and hour now, for same-day cut-offs. */
  today: string;
  hour: number;
}

/** The door-delivery intervals of one tariff. */
export interface TariffSlots {
  tariffId: number;
  tariffProviderId: string;
  tariffName: string;
  pickupType: 1 | 2;
  deliveryType: 1 | 2;
  toIntervals: DeliveryInterval[];
}

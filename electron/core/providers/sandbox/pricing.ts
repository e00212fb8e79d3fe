import type { CalculatorParcel } from '../../../../shared/schemas/calculator';
import { addDays, weekday } from '../../calculator/calendar';
import type { Quote, QuoteRequest } from '../../calculator/pricing-provider';
import type { SandboxService } from './catalog';

/**
 * Prices and terms of the sandbox services: deterministic, so tests and demos can check every kopeck.
 *
 * transport = base[band] + perStep[band] × (500 g steps of the billable weight − 1)
 *             + doorPickup (pickupType 1) + doorDelivery (deliveryType 1)
 * billable weight = Σ per place max(weight, L×W×H / divisor) — the volumetric weight
 * insurance = assessedCost × insurance rate; COD fee = codCost × COD rate, at least the minimum
 * Rates are per mille of a percent (basis points); every amount is integer kopecks, rounded half up.
 */
export interface SandboxRates {
  /** Kopecks by distance band (0 same city … 4 farthest). */
  base: readonly [number, number, number, number, number];
  perStep: readonly [number, number, number, number, number];
  doorPickup: number;
  doorDelivery: number;
  /** cm³ per kg for the volumetric weight; null: the service weighs only. */
  volumetricDivisor: number | null;
  insuranceBp: number;
  /** null: the service takes no cash on delivery. */
  cod: { bp: number; minKopecks: number } | null;
  /** Days in transit [min, max] by distance band. */
  terms: readonly [readonly [number, number], readonly [number, number], readonly [number, number], readonly [number, number], readonly [number, number]];
  /** A parcel handed over on a Sunday leaves on Monday. */
  closedOnSunday: boolean;
  /** Only one place per shipment (parcel lockers). */
  singlePlace: boolean;
  /** Largest sides of a place in cm, longest first (locker cells). */
  maxSides?: readonly [number, number, number];
}

const rub = (rubles: number) => rubles * 100;

export const sandboxRates: Readonly<Record<string, SandboxRates>> = {
  'sandbox-express': {
    base: [rub(250), rub(350), rub(450), rub(600), rub(900)],
    perStep: [rub(30), rub(45), rub(60), rub(80), rub(120)],
    doorPickup: rub(150),
    doorDelivery: rub(120),
    volumetricDivisor: 5000,
    insuranceBp: 50,
    cod: { bp: 200, minKopecks: rub(30) },
    terms: [[1, 1], [1, 2], [2, 3], [3, 5], [5, 8]],
    closedOnSunday: false,
    singlePlace: false,
  },
  'sandbox-post': {
    base: [rub(180), rub(220), rub(280), rub(350), rub(500)],
    perStep: [rub(15), rub(20), rub(30), rub(40), rub(60)],
    doorPickup: 0,
    doorDelivery: rub(90),
    volumetricDivisor: null,
    insuranceBp: 40,
    cod: { bp: 300, minKopecks: rub(25) },
    terms: [[2, 3], [3, 5], [5, 8], [7, 12], [10, 18]],
    closedOnSunday: true,
    singlePlace: false,
  },
  'sandbox-lockers': {
    base: [rub(150), rub(200), rub(260), rub(330), rub(450)],
    perStep: [rub(20), rub(25), rub(35), rub(45), rub(70)],
    doorPickup: rub(120),
    doorDelivery: 0,
    volumetricDivisor: 6000,
    insuranceBp: 30,
    cod: null,
    terms: [[1, 2], [2, 3], [3, 5], [5, 7], [7, 10]],
    closedOnSunday: false,
    singlePlace: true,
    maxSides: [60, 40, 40],
  },
};

/** Distance bands: same city (< 50 km), < 700 km, < 2000 km, < 4500 km, farther. A place off the map counts as band 3. */
export function distanceBand(km: number | null): 0 | 1 | 2 | 3 | 4 {
  if (km === null) return 3;
  if (km < 50) return 0;
  if (km < 700) return 1;
  if (km < 2000) return 2;
  if (km < 4500) return 3;
  return 4;
}

/** amount × bp / 10000, half up, in integer kopecks. */
const share = (kopecks: number, bp: number) => Math.floor((kopecks * bp + 5000) / 10000);

/** Grams the service charges for: each place at its actual or volumetric weight, whichever is more. */
export function billableGrams(places: CalculatorParcel[], divisor: number | null): number {
  return places.reduce((sum, p) => {
    const volumetric = divisor && p.length && p.width && p.height ? Math.ceil((p.length * p.width * p.height * 1000) / divisor) : 0;
    return sum + Math.max(p.weight, volumetric);
  }, 0);
}

function fits(place: CalculatorParcel, maxSides: readonly [number, number, number]): boolean {
  if (!place.length || !place.width || !place.height) return true;
  const sides = [place.length, place.width, place.height].sort((a, b) => b - a);
  return sides.every((side, i) => side <= maxSides[i]);
}

/** Days in transit from the pickup date, for the service's band. */
export function sandboxTerm(rates: SandboxRates, distanceKm: number | null, pickupDate: string): { daysMin: number; daysMax: number } {
  const [min, max] = rates.terms[distanceBand(distanceKm)];
  const wait = rates.closedOnSunday && weekday(pickupDate) === 0 ? 1 : 0;
  return { daysMin: min + wait, daysMax: max + wait };
}

/** The earliest day the service can deliver a parcel picked up on pickupDate. */
export const earliestDelivery = (rates: SandboxRates, distanceKm: number | null, pickupDate: string) =>
  addDays(pickupDate, sandboxTerm(rates, distanceKm, pickupDate).daysMin);

/** The tariffs of the service that can carry the shipment, priced. */
export function quoteSandbox(service: SandboxService, rates: SandboxRates, request: QuoteRequest): Quote[] {
  if (request.from.countryCode !== 'RU' || request.to.countryCode !== 'RU') return []; // the sandbox services work within Russia
  if (request.codKopecks > 0 && !rates.cod) return [];
  if (rates.singlePlace && request.places.length > 1) return [];
  if (rates.maxSides && !request.places.every((p) => fits(p, rates.maxSides!))) return [];

  const band = distanceBand(request.distanceKm);
  const actual = request.places.reduce((sum, p) => sum + p.weight, 0);
  const steps = Math.max(1, Math.ceil(billableGrams(request.places, rates.volumetricDivisor) / 500));
  const insurance = share(request.assessedKopecks, rates.insuranceBp);
  const codFee = request.codKopecks > 0 && rates.cod ? Math.max(rates.cod.minKopecks, share(request.codKopecks, rates.cod.bp)) : 0;
  const term = sandboxTerm(rates, request.distanceKm, request.pickupDate);

  return service.tariffs
    .filter((t) => actual >= t.weightMin && actual <= t.weightMax)
    .map((t) => ({
      tariffId: t.id,
      tariffProviderId: `${service.numberPrefix}${t.id}`,
      tariffName: t.name,
      pickupType: t.pickupType,
      deliveryType: t.deliveryType,
      transportKopecks:
        rates.base[band] + rates.perStep[band] * (steps - 1) + (t.pickupType === 1 ? rates.doorPickup : 0) + (t.deliveryType === 1 ? rates.doorDelivery : 0),
      insuranceKopecks: insurance,
      codFeeKopecks: codFee,
      ...term,
    }));
}

/** The `rates` of a sandbox service; none for a service without rates. */
export function sandboxRatesOf(service: SandboxService): ((request: QuoteRequest) => Promise<Quote[]>) | undefined {
  const rates = sandboxRates[service.info.key];
  if (!rates) return undefined;
  return async (request) => quoteSandbox(service, rates, request);
}

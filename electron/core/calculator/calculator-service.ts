import type { z } from 'zod';
import { ErrorCode, type FieldError } from '../../../shared/errors';
import { toKopecks, toRubles } from '../../../shared/money';
import type { CalculatorAnswer, CalculatorParcel, CalculatorRequest, CalculatorResult, TariffQuote } from '../../../shared/schemas/calculator';
import type { Clock } from '../clock';
import { AppError, fieldErrors } from '../errors';
import type { ProviderRegistry } from '../providers/registry';
import { localDate } from './calendar';
import { distanceBetween, resolvePlace } from './geo';
import { pointRefusals, type Parcel, type PointRole } from '../lists/point-checks';
import type { PointDirectory } from './points';
import type { Logger } from '../logger';
import { leftOutOnFailure } from '../providers/optional-answer';
import { ProviderUnavailableError } from '../providers/provider';
import type { Quote } from './pricing-provider';

/** The calculator's own validation error (040003), for its schema and for what only the services can check. */
export const calculatorError = (errors: FieldError[]) =>
  new AppError(400, {
    code: ErrorCode.calculatorValidation,
    message: 'Calculator validation error',
    description: errors.map((e) => `${e.field}: ${e.message}`).join('; '),
    errors,
  });

/** parseInput for the calculator calls: the same field errors, code 040003. */
export function parseCalculatorInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw calculatorError(fieldErrors(parsed.error, raw));
  return parsed.data;
}

/** Unknown service keys are the caller's mistake (040003), not an empty answer. */
export function checkProviderKeys(providers: ProviderRegistry, keys: string[] | undefined) {
  const errors = (keys ?? []).flatMap((key, i) => (providers.get(key) ? [] : [{ field: `providerKeys.${i}`, message: `unknown delivery service ${key}` }]));
  if (errors.length) throw calculatorError(errors);
}

/** The day the parcel is handed over: the given one, today when missing; never in the past. */
export function pickupDay(clock: Clock, pickupDate: string | undefined): string {
  const today = localDate(clock.now());
  if (pickupDate !== undefined && pickupDate < today) throw calculatorError([{ field: 'pickupDate', message: `must not be before today (${today})` }]);
  return pickupDate ?? today;
}

export interface CalculatorDeps {
  clock: Clock;
  /** The carriers that have `rates` are priced. */
  providers: ProviderRegistry;
  log: Logger;
  /** The pickup points reference; without it (tests) tariffs to a point carry no pointIds and point ids cannot be checked. */
  points?: PointDirectory;
}

const toWire = (q: Quote): TariffQuote => {
  const cost = toRubles(q.transportKopecks + q.insuranceKopecks + q.codFeeKopecks);
  return {
    tariffId: q.tariffId,
    tariffProviderId: q.tariffProviderId,
    tariffName: q.tariffName,
    pickupTypes: [q.pickupType],
    deliveryTypes: [q.deliveryType],
    deliveryCost: cost,
    deliveryCostOriginal: cost,
    daysMin: q.daysMin,
    daysMax: q.daysMax,
    feesIncluded: true,
    insuranceFee: toRubles(q.insuranceKopecks),
    cashServiceFee: toRubles(q.codFeeKopecks),
  };
};

/** The shipment as a point sees it: the total weight and the largest sides of any place. */
function parcelOf(places: CalculatorParcel[], codCost: number): Parcel {
  const sides = places.map((p) => [p.length ?? 0, p.width ?? 0, p.height ?? 0].sort((a, b) => b - a));
  const [length, width, height] = [0, 1, 2].map((i) => Math.max(...sides.map((s) => s[i])));
  return { weight: places.reduce((sum, p) => sum + p.weight, 0), length, width, height, codCost };
}

const cheapestFirst = (a: Quote, b: Quote) =>
  a.transportKopecks + a.insuranceKopecks + a.codFeeKopecks - (b.transportKopecks + b.insuranceKopecks + b.codFeeKopecks) || a.tariffId - b.tariffId;

/** Cost and term of a shipment with every service (or the ones asked for), to the door and to a pickup point. */
export function createCalculatorService({ clock, providers, log, points }: CalculatorDeps) {
  /** The service of a point the request names, once the point is known to take the parcel. */
  async function pointOwner(id: number | undefined, field: string, role: PointRole, parcel: Parcel): Promise<string | undefined> {
    if (id === undefined) return undefined;
    const point = await points?.find(id);
    if (!point) throw calculatorError([{ field, message: `there is no pickup point ${id}` }]);
    const refusals = pointRefusals(point, role === 'in' ? { ...parcel, codCost: 0 } : parcel, role);
    if (refusals.length) throw calculatorError(refusals.map((r) => ({ field, message: r.message })));
    return point.providerKey;
  }

  /** The priced tariffs, and the services that could not be asked (down, or no network): the window names those. */
  async function quote(request: CalculatorRequest): Promise<CalculatorAnswer> {
    checkProviderKeys(providers, request.providerKeys);
    const pickupDate = pickupDay(clock, request.pickupDate);
    const parcel = parcelOf(request.places, request.codCost);
    const pointInOwner = await pointOwner(request.pointInId, 'pointInId', 'in', parcel);
    const pointOutOwner = await pointOwner(request.pointOutId, 'pointOutId', 'out', parcel);
    const from = resolvePlace(request.from);
    const to = resolvePlace(request.to);
    const quoteRequest = {
      from,
      to,
      distanceKm: distanceBetween(from, to),
      places: request.places,
      assessedKopecks: toKopecks(request.assessedCost),
      codKopecks: toKopecks(request.codCost),
      pickupDate,
    };

    const result: CalculatorResult = { deliveryToDoor: [], deliveryToPoint: [] };
    const unreachable: string[] = [];
    for (const carrier of providers.all()) {
      const { info } = carrier;
      if (!carrier.rates || (request.providerKeys && !request.providerKeys.includes(info.key))) continue;
      const quotes = (
        await carrier.rates(quoteRequest).catch((error: unknown) => {
          if (error instanceof ProviderUnavailableError) unreachable.push(info.key);
          return leftOutOnFailure(log, info.key, 'prices', [])(error);
        })
      )
        .filter((q) => !request.tariffIds || request.tariffIds.includes(q.tariffId))
        .filter((q) => !request.pickupTypes || request.pickupTypes.includes(q.pickupType))
        .filter((q) => !request.deliveryTypes || request.deliveryTypes.includes(q.deliveryType))
        // A parcel brought to a given point goes with that point's service; the same for the point it goes to.
        .filter((q) => q.pickupType !== 2 || pointInOwner === undefined || pointInOwner === info.key)
        .filter((q) => q.deliveryType !== 2 || pointOutOwner === undefined || pointOutOwner === info.key)
        .sort(cheapestFirst);

      const toDoor = quotes.filter((q) => q.deliveryType === 1).map(toWire);
      if (toDoor.length) result.deliveryToDoor.push({ providerKey: info.key, tariffs: toDoor });

      const toPointQuotes = quotes.filter((q) => q.deliveryType === 2);
      if (toPointQuotes.length === 0) continue;
      let pointIds: number[] = [];
      if (request.pointOutId !== undefined) pointIds = [request.pointOutId];
      else if (points) {
        const city = to.known?.name ?? to.city;
        const near = to.lat !== null && to.lng !== null ? { lat: to.lat, lng: to.lng } : undefined;
        pointIds = city ? await points.issuingIn({ providerKey: info.key, city, parcel, near }) : [];
        if (pointIds.length === 0) continue; // no point of this service to hand the parcel out in that city
      }
      result.deliveryToPoint.push({ providerKey: info.key, tariffs: toPointQuotes.map((q) => ({ ...toWire(q), pointIds })) });
    }
    return { ...result, unreachable };
  }

  return {
    quote,
    /** The interface's answer (POST /calculator): the priced tariffs only. */
    async calculate(request: CalculatorRequest): Promise<CalculatorResult> {
      const { deliveryToDoor, deliveryToPoint } = await quote(request);
      return { deliveryToDoor, deliveryToPoint };
    },
  };
}

export type CalculatorService = ReturnType<typeof createCalculatorService>;

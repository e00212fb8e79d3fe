import { unreadableAnswer } from '../service-failure';
import { mergePdfs } from '../../print/merge';
import { ZodError, type z } from 'zod';
import type { ProviderInfo } from '../../../../shared/contract/providers';
import type { FieldError } from '../../../../shared/errors';
import { said } from '../../../../shared/messages';
import type { OrderCreate } from '../../../../shared/schemas/order';
import type { Quote, QuoteRequest } from '../../calculator/pricing-provider';
import { normalizeCity } from '../../calculator/geo';
import type { PointSource } from '../../lists/carrier-reference';
import type { CourierCalls } from '../courier-call';
import { indexOfCity } from '../russian-post/mapping';
import type { StoredReference } from '../carrier-kind';
import { ProviderRejectedError, ProviderUnavailableError, type Carrier, type Registration, type ShipmentRequest, type TrackedShipment } from '../provider';
import { trackEach } from '../track-each';
import { failureReason } from '../service-failure';
import { BOXBERRY, BoxberryApiError, type BoxberryClient } from './client';
import {
  BOXBERRY_KEY, boxberryCostsQuery, boxberryFieldError, boxberryOrderErrors, boxberryTariffOf, boxberryTariffRecords, boxberryTariffs, handedOver, intakeNumberOf,
  isDuplicate, isNotFound, mapBoxberryStatuses, pointFromBoxberry, quoteFromBoxberry, toBoxberryIntake, toBoxberryParcel, type BoxberryCostTarget,
} from './mapping';
import {
  boxberryActSchema, boxberryCitiesSchema, boxberryCostsSchema, boxberryCreatedSchema, boxberryIntakeSchema, boxberryLabelSchema, boxberryParcelInfoListSchema,
  boxberryPointSchema, boxberryStatusesSchema, type BoxberryPoint,
} from './wire';
import { checkOf } from '../check-of';

export interface BoxberryProviderOptions {
  client: BoxberryClient;
  reference: StoredReference;
  trackConcurrency?: number;
}

export const BOXBERRY_POINT_ID_BASE = 30_000_000;

/** Boxberry as /lists/providers shows it. */
export function boxberryInfo(testMode: boolean): ProviderInfo {
  return {
    key: BOXBERRY_KEY,
    name: 'Boxberry',
    description: 'Boxberry: доставка в пункты выдачи и постаматы, курьером до двери, оплата при получении; посылки сдаются в пункт приёма Boxberry.',
    test: testMode,
    capabilities: { cancel: true, update: true, intervals: 'none', deliveryTypes: [1, 2], pickupTypes: [2], cod: true },
  };
}

/** A refusal → ProviderRejectedError with Boxberry's own words; an answer ShipDesk cannot read is an outage. */
function translate(error: unknown): unknown {
  if (error instanceof BoxberryApiError) return new ProviderRejectedError(error.message, [{ ...boxberryFieldError(error.message), ...error.ref }]);
  if (error instanceof ZodError) return unreadableAnswer(BOXBERRY, error);
  return error;
}

const parse = <S extends z.ZodType>(schema: S, body: unknown): z.output<S> => schema.parse(body);

/**
 * Boxberry's json.php adapter. A parcel is created once by the shop's number (`order_id`); a lost reply is found again
 * by that number (ParcelInfo) before any re-send, and a "already exists" refusal adopts the parcel it names.
 */
export function createBoxberryProvider(options: BoxberryProviderOptions) {
  const { client, reference } = options;

  async function points(order: OrderCreate, errors: FieldError[]): Promise<{ dropOff: string; target?: string }> {
    const o = order.order;
    let dropOff = '';
    if (o.pointInId === undefined) errors.push({ field: 'order.pointInId', message: 'is required: the parcel is handed over at a Boxberry point, name it' });
    else {
      const point = await reference.point(BOXBERRY_KEY, o.pointInId);
      if (!point) errors.push({ field: 'order.pointInId', message: `${o.pointInId} is not a Boxberry point known to ShipDesk (sync its points first)` });
      else if (!point.enabled || point.availableOperation === 2) errors.push({ field: 'order.pointInId', message: `Boxberry point ${point.code} does not take parcels from shops` });
      else dropOff = point.code;
    }
    if (o.deliveryType === 1) return { dropOff };
    if (o.pointOutId === undefined) {
      errors.push({ field: 'order.pointOutId', message: 'is required: with deliveryType 2 name the Boxberry point' });
      return { dropOff };
    }
    const point = await reference.point(BOXBERRY_KEY, o.pointOutId);
    if (!point) {
      errors.push({ field: 'order.pointOutId', message: `${o.pointOutId} is not a Boxberry point known to ShipDesk (sync its points first)` });
      return { dropOff };
    }
    if (!point.enabled) errors.push({ field: 'order.pointOutId', message: `Boxberry point ${point.code} is closed` });
    if (order.cost.codCost > 0 && point.cod === 0) errors.push({ field: 'cost.codCost', message: `Boxberry point ${point.code} takes only prepaid parcels` });
    return { dropOff, target: point.code };
  }

  async function prepare(order: OrderCreate) {
    const errors = boxberryOrderErrors(order);
    const o = order.order;
    const tariff = boxberryTariffOf(o.tariffId);
    if (!tariff) errors.push({ field: 'order.tariffId', message: `is not a Boxberry tariff (${boxberryTariffs.map((t) => `${t.id} ${t.name}`).join(', ')})` });
    else if (tariff.deliveryType !== o.deliveryType) errors.push({ field: 'order.deliveryType', message: `Boxberry tariff ${tariff.id} (${tariff.name}) expects deliveryType ${tariff.deliveryType}` });
    if (o.pickupType !== 2) errors.push({ field: 'order.pickupType', message: 'Boxberry takes parcels at its points: pickupType 2' });
    if (o.deliveryType === 1 && !order.recipient.addressString && !order.recipient.street) errors.push({ field: 'recipient.street', message: 'Boxberry needs the street (or an address line) for a courier delivery' });
    return { errors, points: await points(order, errors) };
  }

  async function sdata(order: OrderCreate, updateByTrack?: string) {
    const { errors, points: resolved } = await prepare(order);
    if (errors.length) throw new ProviderRejectedError(errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
    return toBoxberryParcel(order, resolved, updateByTrack);
  }

  async function find(request: ShipmentRequest): Promise<Registration | null> {
    let list;
    try {
      list = parse(boxberryParcelInfoListSchema, await client.post('ParcelInfo', { parcels: [{ order_id: request.clientNumber }] }));
    } catch (error) {
      if (error instanceof BoxberryApiError && isNotFound(error.message)) return null;
      if (error instanceof ProviderUnavailableError) throw error;
      // Any other answer is no proof the parcel is absent: never send again on a doubt.
      throw new ProviderUnavailableError(said('provider.lookupFailed', { service: BOXBERRY, number: request.clientNumber, reason: failureReason(error) }));
    }
    const mine = list.find((p) => p.order_id === undefined || p.order_id === request.clientNumber);
    const track = mine?.track_number ?? mine?.track;
    return track ? { providerNumber: track, barcode: track } : null;
  }

  async function register(request: ShipmentRequest): Promise<Registration> {
    const body = await sdata(request.order);
    try {
      const created = parse(boxberryCreatedSchema, await client.post('ParselCreate', { sdata: body }));
      return { providerNumber: created.track, barcode: created.track };
    } catch (error) {
      if (error instanceof BoxberryApiError && isDuplicate(error.message)) {
        // Boxberry has this number already: the parcel of a lost reply is adopted.
        const existing = await find(request);
        if (existing) return existing;
      }
      throw translate(error);
    }
  }

  async function update(providerNumber: string, request: ShipmentRequest): Promise<void> {
    const body = await sdata(request.order, providerNumber);
    try {
      parse(boxberryCreatedSchema, await client.post('ParselCreate', { sdata: body }));
    } catch (error) {
      throw translate(error);
    }
  }

  async function history(providerNumber: string) {
    try {
      return mapBoxberryStatuses(parse(boxberryStatusesSchema, await client.get('ListStatuses', { ImId: providerNumber })));
    } catch (error) {
      if (error instanceof BoxberryApiError && isNotFound(error.message)) return null;
      throw translate(error);
    }
  }

  /** Cancels: a parcel not yet at Boxberry is deleted (cancelType 1), one on its way is recalled (2). Repeating it is harmless. */
  async function cancel(providerNumber: string): Promise<void> {
    const statuses = await history(providerNumber);
    if (!statuses) throw new ProviderRejectedError(said('provider.unknownParcel', { service: BOXBERRY, number: providerNumber }));
    const last = statuses.at(-1)?.key;
    if (last === 'deliveryCanceled' || last === 'returning' || last === 'returned') return;
    if (last === 'delivered' || last === 'partialReturn') throw new ProviderRejectedError(said('provider.parcelHandedOut', { service: BOXBERRY, number: providerNumber }));
    try {
      await client.get('CancelOrder', { track: providerNumber, cancelType: handedOver(statuses) ? 2 : 1 });
    } catch (error) {
      throw translate(error);
    }
  }

  // ------------------------------------------------------------ documents

  async function labels(shipments: TrackedShipment[], format: 'pdf' | 'zpl'): Promise<Uint8Array> {
    if (format !== 'pdf') throw new ProviderRejectedError(said('provider.pdfOnly', { service: BOXBERRY }));
    if (shipments.length === 0 || shipments.length > 100) throw new ProviderRejectedError(said('provider.printBatchParcels', { service: BOXBERRY }));
    try {
      const files: Uint8Array[] = [];
      for (const s of shipments) files.push(await client.download(parse(boxberryLabelSchema, await client.get('ParselCheck', { ImId: s.providerNumber })).label));
      return await mergePdfs(files); // one file for the printer: Boxberry links one PDF per parcel
    } catch (error) {
      throw translate(error);
    }
  }

  /** The handover act Boxberry forms for the parcels (ParselSend), as its PDF. */
  async function handoverAct(shipments: TrackedShipment[]): Promise<Uint8Array> {
    try {
      const act = parse(boxberryActSchema, await client.get('ParselSend', { ImIds: shipments.map((s) => s.providerNumber).join(',') }));
      return await client.download(act.label);
    } catch (error) {
      throw translate(error);
    }
  }

  // ------------------------------------------------------------ points

  /** A city's points as Boxberry lists them (ListPoints&CityCode=); a point ShipDesk cannot read is counted as skipped. */
  async function cityPoints(cityCode: string): Promise<{ found: BoxberryPoint[]; skipped: number }> {
    const raw = await client.get('ListPoints', { CityCode: cityCode, prepaid: 1 });
    const found: BoxberryPoint[] = [];
    let skipped = 0;
    for (const r of Array.isArray(raw) ? raw : []) {
      const parsed = boxberryPointSchema.safeParse(r);
      if (parsed.success) found.push(parsed.data);
      else skipped++;
    }
    return { found, skipped };
  }

  /** Its points, one city a page (ListCities, then ListPoints per city), for lists/ to store. */
  function pointSource(): PointSource {
    let cities: { Code: string }[] | null = null;
    return {
      providerKey: BOXBERRY_KEY,
      source: BOXBERRY_KEY,
      idBase: BOXBERRY_POINT_ID_BASE,
      async page(index) {
        if (index === 0 || !cities) cities = parse(boxberryCitiesSchema, await client.get('ListCities'));
        const city = cities[index];
        if (!city) return { points: [], skipped: 0, more: false };
        const { found, skipped } = await cityPoints(city.Code);
        return { points: found.map((p) => ({ code: p.Code, toPoint: (id: number) => pointFromBoxberry(p, id) })), skipped, more: index + 1 < cities.length };
      },
    };
  }

  // ------------------------------------------------------------ prices

  /**
   * Where DeliveryCosts prices a tariff to the city: a point there that hands out parcels (one taking cash when there is
   * cash to collect), or the city's postal index for the door. None → the tariff is not offered there.
   */
  async function costTarget(deliveryType: 1 | 2, city: string, cod: boolean): Promise<BoxberryCostTarget | null> {
    if (deliveryType === 1) {
      const zip = indexOfCity(city);
      return zip ? { zip } : null;
    }
    const known = parse(boxberryCitiesSchema, await client.get('ListCities')).find((c) => normalizeCity(c.Name) === normalizeCity(city));
    if (!known) return null;
    const { found } = await cityPoints(known.Code);
    const target = found.find((p) => !cod || p.OnlyPrepaidOrders !== 'Yes');
    return target ? { target: target.Code } : null;
  }

  /** Each tariff priced by DeliveryCosts to the destination city; a tariff Boxberry does not run there is left out. */
  async function rates(request: QuoteRequest): Promise<Quote[]> {
    if (!request.to.city) return [];
    const parcel = { grams: request.places.reduce((s, p) => s + p.weight, 0), assessedKopecks: request.assessedKopecks, codKopecks: request.codKopecks };
    const quotes: Quote[] = [];
    try {
      for (const tariff of boxberryTariffs) {
        const to = await costTarget(tariff.deliveryType, request.to.city, request.codKopecks > 0);
        if (!to) continue;
        let costs;
        try {
          costs = parse(boxberryCostsSchema, await client.get('DeliveryCosts', boxberryCostsQuery(parcel, to)));
        } catch (error) {
          if (error instanceof BoxberryApiError) continue; // this tariff does not reach the place; the other may
          throw error;
        }
        const quote = quoteFromBoxberry(tariff, costs);
        if (!quote) throw new ProviderUnavailableError(said('provider.priceUnreadable', { service: BOXBERRY, price: String(costs.price) }));
        quotes.push(quote);
      }
    } catch (error) {
      throw translate(error);
    }
    return quotes;
  }

  // ------------------------------------------------------------ courier

  /**
   * Courier intake (CreateIntake): a courier comes to the shop for its parcels. Boxberry answers with a message that
   * names the intake's number; its API offers no way to cancel one, so a cancel is refused with that reason.
   */
  const courierCalls: CourierCalls = {
    async create(request) {
      try {
        const answer = parse(boxberryIntakeSchema, await client.get('CreateIntake', toBoxberryIntake(request)));
        return { providerNumber: intakeNumberOf(answer.message) };
      } catch (error) {
        if (error instanceof BoxberryApiError) throw new ProviderRejectedError(said('provider.refusedCourierCall', { service: BOXBERRY, reason: error.message }), [boxberryFieldError(error.message)]);
        throw translate(error);
      }
    },
    async cancel() {
      throw new ProviderRejectedError(said('provider.noCourierCancel', { service: BOXBERRY }));
    },
  };

  return {
    info: boxberryInfo(false),
    check: checkOf(prepare),
    register,
    find,
    update,
    cancel,
    track: (shipments: TrackedShipment[]) => trackEach(shipments, (s) => history(s.providerNumber), options.trackConcurrency),
    labels,
    handoverAct,
    rates,
    courierCalls,
    referenceData: { points: pointSource(), tariffs: boxberryTariffRecords },
    /** "Test connection": the city list, which needs a valid token. */
    async testConnection(): Promise<void> {
      try {
        parse(boxberryCitiesSchema, await client.get('ListCities'));
      } catch (error) {
        throw translate(error);
      }
    },
  } satisfies Carrier & Record<string, unknown>;
}

export type BoxberryProvider = ReturnType<typeof createBoxberryProvider>;

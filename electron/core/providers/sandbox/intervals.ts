import type { DeliveryInterval } from '../../../../shared/schemas/calculator';
import { addDays, weekday } from '../../calculator/calendar';
import type { IntervalRequest, TariffSlots } from '../../intervals/interval-source';
import type { SandboxService } from './catalog';
import { earliestDelivery, sandboxRates } from './pricing';

/**
 * Delivery intervals of the sandbox services (door delivery only):
 *
 * - sandbox-post, fixed: 09:00–14:00, 14:00–18:00, 18:00–21:00 on any delivery day (date null).
 *   It ignores pickupDate, deliveryDate and the place.
 * - sandbox-express, dynamic: concrete dates from the earliest delivery day (pickup day + the shortest
 *   term for the distance; a pickup asked for today after 14:00 leaves tomorrow). It considers
 *   deliveryDate: given, only that day (none when the parcel cannot be there by then); missing, the
 *   next week (7 days from the earliest delivery day). Slots depend on the destination:
 *     million-plus city: 09–12, 12–15, 15–18, 18–21 every day, Sundays 10–14 and 14–18;
 *     other city it knows: 10–14 and 14–18, Monday to Saturday;
 *     a place it cannot find: 10–18, Monday to Friday.
 * - sandbox-lockers uses no intervals (any interval may be given at creation).
 */
const cutOffHour = 14;
const windowDays = 7;

type Slot = readonly [string, string];
const fixedSlots: Slot[] = [['09:00', '14:00'], ['14:00', '18:00'], ['18:00', '21:00']];

function expressSlots(to: IntervalRequest['to'], date: string): Slot[] {
  const day = weekday(date);
  if (to.known?.large) return day === 0 ? [['10:00', '14:00'], ['14:00', '18:00']] : [['09:00', '12:00'], ['12:00', '15:00'], ['15:00', '18:00'], ['18:00', '21:00']];
  if (to.known) return day === 0 ? [] : [['10:00', '14:00'], ['14:00', '18:00']];
  return day === 0 || day === 6 ? [] : [['10:00', '18:00']];
}

function expressIntervals(service: SandboxService, request: IntervalRequest): DeliveryInterval[] {
  const rates = sandboxRates[service.info.key];
  const handover = request.pickupDate === request.today && request.hour >= cutOffHour ? addDays(request.today, 1) : request.pickupDate;
  const earliest = earliestDelivery(rates, request.distanceKm, handover);
  const days = request.deliveryDate
    ? request.deliveryDate >= earliest
      ? [request.deliveryDate]
      : []
    : Array.from({ length: windowDays }, (_, i) => addDays(earliest, i));
  return days.flatMap((date) => expressSlots(request.to, date).map(([from, to]) => ({ date, from, to })));
}

const rules: Record<string, (service: SandboxService, request: IntervalRequest) => DeliveryInterval[]> = {
  'sandbox-post': () => fixedSlots.map(([from, to]) => ({ date: null, from, to })),
  'sandbox-express': expressIntervals,
};

/** The `intervals` of a sandbox service; none for a service without intervals. */
export function sandboxIntervalsOf(service: SandboxService): ((request: IntervalRequest) => Promise<TariffSlots[]>) | undefined {
  const rule = rules[service.info.key];
  if (!rule || service.info.capabilities.intervals === 'none') return undefined;
  const cod = sandboxRates[service.info.key]?.cod;
  return async (request) => {
    if (request.codKopecks > 0 && !cod) return [];
    const toIntervals = rule(service, request);
    return service.tariffs
      .filter((t) => t.deliveryType === 1)
      .map((t): TariffSlots => ({
        tariffId: t.id,
        tariffProviderId: `${service.numberPrefix}${t.id}`,
        tariffName: t.name,
        pickupType: t.pickupType,
        deliveryType: t.deliveryType,
        toIntervals,
      }));
  };
}

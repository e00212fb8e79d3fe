import type { FieldError } from '../../../../shared/errors';
import { addDays, localDate, weekday } from '../../calculator/calendar';
import type { Clock } from '../../clock';
import { fold } from '../../lists/filter';
import type { StoredReferenceData } from '../../orders/reference-data';
import type { CourierCallRequest, CourierCalls } from '../courier-call';
import { ProviderRejectedError } from '../provider';
import type { SandboxService } from './catalog';
import { doorCities } from './intake';
import { fieldReasons, said } from '../../../../shared/messages';

/** How a sandbox service takes courier calls, as real services publish theirs. */
export interface CourierRules {
  /** A call for today is taken only before this hour. */
  cutOffHour: number;
  /** Couriers work between these times (HH:MM). */
  opens: string;
  closes: string;
  /** The shortest window the shop may give, in hours. */
  minWindowHours: number;
  /** How many days ahead a call may be made. */
  maxDaysAhead: number;
}

/** Only the services that come to the door for parcels (pickupType 1) take calls; the post takes them at its counters. */
export const sandboxCourierRules: Record<string, CourierRules> = {
  'sandbox-express': { cutOffHour: 14, opens: '09:00', closes: '20:00', minWindowHours: 3, maxDaysAhead: 14 },
  'sandbox-lockers': { cutOffHour: 12, opens: '10:00', closes: '18:00', minWindowHours: 3, maxDaysAhead: 7 },
};

/** Russia's non-working public holidays (MM-DD): no courier comes, whatever the weekday. */
const holidays = new Set(['01-01', '01-02', '01-03', '01-04', '01-05', '01-06', '01-07', '01-08', '02-23', '03-08', '05-01', '05-09', '06-12', '11-04']);

const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The day's own refusals: they depend on the date alone (and the shop's clock for "today"), never on chance. */
export function dayRefusals(rules: CourierRules, date: string, today: string, hour: number): FieldError[] {
  if (date < today) return [{ field: 'date', ...said('courier.msg.passed', { date }) }];
  if (date > addDays(today, rules.maxDaysAhead)) return [{ field: 'date', ...said('courier.msg.ahead', { days: rules.maxDaysAhead, until: addDays(today, rules.maxDaysAhead) }) }];
  if (weekday(date) === 0) return [{ field: 'date', ...said('courier.msg.sunday', { date }) }];
  if (holidays.has(date.slice(5))) return [{ field: 'date', ...said('courier.msg.holiday', { date }) }];
  if (date === today && hour >= rules.cutOffHour) return [{ field: 'date', ...said('courier.msg.cutOff', { time: `${String(rules.cutOffHour).padStart(2, '0')}:00` }) }];
  return [];
}

/** The window's refusals: inside working hours and long enough. */
export function windowRefusals(rules: CourierRules, timeStart: string, timeEnd: string): FieldError[] {
  const errors: FieldError[] = [];
  if (timeStart < rules.opens) errors.push({ field: 'timeStart', ...said('courier.msg.opens', { time: rules.opens }) });
  if (timeEnd > rules.closes) errors.push({ field: 'timeEnd', ...said('courier.msg.closes', { time: rules.closes }) });
  if (minutes(timeEnd) - minutes(timeStart) < rules.minWindowHours * 60) {
    errors.push({ field: 'timeEnd', ...said('courier.msg.window', { hours: rules.minWindowHours, window: `${timeStart}–${timeEnd}` }) });
  }
  return errors;
}

/** A sandbox call's number: the service's prefix, C, the day and our id, so it reads back without books. */
const callNumber = (service: SandboxService, request: CourierCallRequest) =>
  `${service.numberPrefix}C${request.date.replaceAll('-', '')}${String(request.callId).padStart(6, '0')}`;

const dateOfNumber = (number: string, prefix: string) => {
  const digits = number.slice(prefix.length + 1, prefix.length + 9);
  return /^\d{8}$/.test(digits) ? `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}` : null;
};

/** The courier calls of a sandbox service that comes to the door; none for one that does not. */
export function sandboxCourierCalls(service: SandboxService, deps: { reference: StoredReferenceData; clock: Clock }): CourierCalls | undefined {
  const key = service.info.key;
  const rules = sandboxCourierRules[key];
  if (!rules || !service.info.capabilities.pickupTypes.includes(1)) return undefined;

  async function serves(city: string): Promise<boolean> {
    return (doorCities[key] ?? []).some((c) => fold(c) === fold(city.trim())) || (await deps.reference.hasPointIn(key, city));
  }

  return {
    async create(request) {
      const errors = [...dayRefusals(rules, request.date, request.today, request.hour), ...windowRefusals(rules, request.timeStart, request.timeEnd)];
      if (!(await serves(request.address.city))) errors.push({ field: 'city', ...said('courier.msg.city', { name: key, city: request.address.city }) });
      if (errors.length) {
        throw new ProviderRejectedError(said('provider.refusedCourierCall', { service: key, reason: fieldReasons(errors) }), errors, 'COURIER_REFUSED');
      }
      return { providerNumber: callNumber(service, request) };
    },

    async cancel(call) {
      const date = call.providerNumber && dateOfNumber(call.providerNumber, service.numberPrefix);
      if (!date) throw new ProviderRejectedError(said('sandbox.noCourierCall', { service: key, number: call.providerNumber ?? '' }), [], 'NOT_FOUND');
      if (date < localDate(deps.clock.now())) throw new ProviderRejectedError(said('sandbox.courierCallPassed', { service: key, number: call.providerNumber ?? '', date }), [], 'PASSED');
    },
  };
}

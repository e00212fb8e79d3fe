import { toKopecks } from '../../../shared/money';
import type { IntervalsRequest, IntervalsResult } from '../../../shared/schemas/calculator';
import { localDate, localHour } from '../calculator/calendar';
import { calculatorError, checkProviderKeys, pickupDay } from '../calculator/calculator-service';
import { distanceBetween, resolvePlace } from '../calculator/geo';
import type { Clock } from '../clock';
import type { Logger } from '../logger';
import { leftOutOnFailure } from '../providers/optional-answer';
import type { ProviderRegistry } from '../providers/registry';

export interface IntervalServiceDeps {
  clock: Clock;
  /** The carriers that have `intervals` are asked. */
  providers: ProviderRegistry;
  log: Logger;
}

/** Delivery intervals of the services that use fixed or dynamic ones, per door-delivery tariff. */
export function createIntervalService({ clock, providers, log }: IntervalServiceDeps) {
  return {
    async intervals(request: IntervalsRequest): Promise<IntervalsResult> {
      checkProviderKeys(providers, request.providerKeys);
      const now = clock.now();
      const today = localDate(now);
      const pickupDate = pickupDay(clock, request.pickupDate);
      if (request.deliveryDate !== undefined && request.deliveryDate < pickupDate) {
        throw calculatorError([{ field: 'deliveryDate', message: `must not be before the pickup date (${pickupDate})` }]);
      }
      const from = resolvePlace(request.from);
      const to = resolvePlace(request.to);
      const slotRequest = {
        from,
        to,
        distanceKm: distanceBetween(from, to),
        codKopecks: toKopecks(request.codCost),
        pickupDate,
        deliveryDate: request.deliveryDate,
        today,
        hour: localHour(now),
      };

      const result: IntervalsResult = { deliveryToDoor: [] };
      for (const carrier of providers.all()) {
        const { info } = carrier;
        if (!carrier.intervals || info.capabilities.intervals === 'none') continue;
        if (request.providerKeys && !request.providerKeys.includes(info.key)) continue;
        const tariffs = (await carrier.intervals(slotRequest).catch(leftOutOnFailure(log, info.key, 'intervals', [])))
          .filter((t) => t.deliveryType === 1)
          .filter((t) => !request.tariffIds || request.tariffIds.includes(t.tariffId))
          .filter((t) => !request.pickupTypes || request.pickupTypes.includes(t.pickupType))
          .map((t) => ({
            tariffProviderId: t.tariffProviderId,
            tariffId: t.tariffId,
            tariffName: t.tariffName,
            pickupTypes: [t.pickupType],
            deliveryTypes: [t.deliveryType],
            toIntervals: t.toIntervals,
          }));
        if (tariffs.length) result.deliveryToDoor.push({ providerKey: info.key, tariffs });
      }
      return result;
    },
  };
}

export type IntervalService = ReturnType<typeof createIntervalService>;

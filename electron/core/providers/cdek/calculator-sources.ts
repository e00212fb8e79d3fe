import type { ResolvedPlace } from '../../calculator/geo';
import type { PricingProvider, Quote } from '../../calculator/pricing-provider';
import type { IntervalSource, TariffSlots } from '../../intervals/interval-source';
import { toKopecks } from '../../../../shared/money';
import type { Logger } from '../../logger';
import { ProviderRejectedError, ProviderUnavailableError } from '../provider';
import type { CdekProvider } from './cdek-provider';
import { CDEK_KEY, cdekParcelTariffs, deliveryModes, type CalcAddress } from './mapping';

const place = (p: ResolvedPlace): CalcAddress => ({ countryCode: p.countryCode, city: p.city ?? undefined });

/** A CDEK failure leaves CDEK out of the answer (the other services still answer); anything else is a bug. */
function quiet<T>(log: Logger, what: string, empty: T) {
  return (error: unknown): T => {
    if (error instanceof ProviderUnavailableError || error instanceof ProviderRejectedError) {
      log.warn(`cdek: ${what} left out: ${error.message}`);
      return empty;
    }
    throw error;
  };
}

/**
 * CDEK in the calculator: `POST /v2/calculator/tarifflist` through the connected account (the default
 * connection). Without a connection CDEK is not listed, so the source is simply not asked.
 */
export function createCdekPricing(cdek: () => CdekProvider | undefined, log: Logger): PricingProvider {
  return {
    providerKey: CDEK_KEY,
    async quote(request) {
      const adapter = cdek();
      if (!adapter || !request.from.city || !request.to.city) return [];
      const tariffs = await adapter
        .calculate({ from: place(request.from), to: place(request.to), places: request.places })
        .catch(quiet(log, 'prices', []));
      return tariffs.map(
        (t): Quote => ({
          tariffId: t.tariffId,
          tariffProviderId: t.tariffProviderId,
          tariffName: t.tariffName,
          pickupType: t.pickupTypes[0] as 1 | 2,
          deliveryType: t.deliveryTypes[0] as 1 | 2,
          transportKopecks: toKopecks(t.deliveryCost),
          insuranceKopecks: 0,
          codFeeKopecks: 0,
          daysMin: t.daysMin ?? 0,
          daysMax: t.daysMax ?? t.daysMin ?? 0,
        }),
      );
    },
  };
}

/** CDEK's door tariffs get their delivery intervals from `POST /v2/delivery/estimatedIntervals` (dynamic, with dates). */
export function createCdekIntervals(cdek: () => CdekProvider | undefined, log: Logger): IntervalSource {
  const doorTariffs = cdekParcelTariffs.filter((t) => deliveryModes[t.mode].deliveryType === 1);
  return {
    providerKey: CDEK_KEY,
    async intervals(request) {
      const adapter = cdek();
      if (!adapter || !request.to.city) return [];
      // The pickup day is the shop's calendar day; CDEK is asked as of that morning, Moscow time.
      const pickupAt = Date.parse(`${request.pickupDate}T09:00:00+03:00`);
      const slots: TariffSlots[] = [];
      for (const tariff of doorTariffs) {
        const found = await adapter
          .intervals({ from: place(request.from), to: place(request.to), tariffId: tariff.code, pickupAt })
          .catch(quiet(log, `intervals of tariff ${tariff.code}`, []));
        const toIntervals = found.filter((i) => !request.deliveryDate || i.date === request.deliveryDate);
        if (toIntervals.length) {
          const mode = deliveryModes[tariff.mode];
          slots.push({ tariffId: tariff.code, tariffProviderId: String(tariff.code), tariffName: tariff.name, pickupType: mode.pickupType, deliveryType: mode.deliveryType, toIntervals });
        }
      }
      return slots;
    },
  };
}

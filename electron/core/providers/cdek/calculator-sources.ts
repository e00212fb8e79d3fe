import type { ResolvedPlace } from '../../calculator/geo';
import type { Quote, QuoteRequest } from '../../calculator/pricing-provider';
import type { IntervalRequest, TariffSlots } from '../../intervals/interval-source';
import { toKopecks } from '../../../../shared/money';
import type { CdekCalcRequest } from './cdek-provider';
import { cdekParcelTariffs, deliveryModes, type CalcAddress, type CalculatorTariff, type ToInterval } from './mapping';

const place = (p: ResolvedPlace): CalcAddress => ({ countryCode: p.countryCode, city: p.city ?? undefined });

/** CDEK's `rates`: `POST /v2/calculator/tarifflist` read as the calculator's quotes. */
export function cdekRates(calculate: (req: CdekCalcRequest) => Promise<CalculatorTariff[]>) {
  return async (request: QuoteRequest): Promise<Quote[]> => {
    if (!request.from.city || !request.to.city) return [];
    const tariffs = await calculate({ from: place(request.from), to: place(request.to), places: request.places });
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
  };
}

type EstimatedIntervals = (req: { from: CalcAddress; to: CalcAddress; tariffId: number; pickupAt?: number }) => Promise<ToInterval[]>;

/** CDEK's `intervals`: its door tariffs asked `POST /v2/delivery/estimatedIntervals` (dynamic, with dates). */
export function cdekIntervals(estimated: EstimatedIntervals) {
  const doorTariffs = cdekParcelTariffs.filter((t) => deliveryModes[t.mode].deliveryType === 1);
  return async (request: IntervalRequest): Promise<TariffSlots[]> => {
    if (!request.to.city) return [];
    // The pickup day is the shop's calendar day; CDEK is asked as of that morning, Moscow time.
    const pickupAt = Date.parse(`${request.pickupDate}T09:00:00+03:00`);
    const slots: TariffSlots[] = [];
    for (const tariff of doorTariffs) {
      const found = await estimated({ from: place(request.from), to: place(request.to), tariffId: tariff.code, pickupAt });
      const toIntervals = found.filter((i) => !request.deliveryDate || i.date === request.deliveryDate);
      if (toIntervals.length) {
        const mode = deliveryModes[tariff.mode];
        slots.push({ tariffId: tariff.code, tariffProviderId: String(tariff.code), tariffName: tariff.name, pickupType: mode.pickupType, deliveryType: mode.deliveryType, toIntervals });
      }
    }
    return slots;
  };
}

import type { CalculatorRequestInput, CalculatorResult } from '../../shared/schemas/calculator';
import { numberOf, type OrderFormValues } from './form-values';

/** Why prices cannot be asked for yet. */
export type QuoteBlocker = 'cities' | 'weight';

const place = (city: string, addressString?: string) => (city.trim() ? { city: city.trim() } : addressString?.trim() ? { addressString: addressString.trim() } : undefined);

/** The calculator request for the form as it stands, or what is still missing for one. */
export function quoteRequestOf(values: OrderFormValues): { request: CalculatorRequestInput } | { missing: QuoteBlocker } {
  const to = values.recipientAddressMode === 'line' ? place('', values.recipient.addressString) : place(values.recipient.city);
  const from = place(values.sender.city);
  if (!to || !from) return { missing: 'cities' };
  const places = values.places.map((p) => ({
    weight: numberOf(p.weight),
    length: numberOf(p.length),
    width: numberOf(p.width),
    height: numberOf(p.height),
  }));
  if (places.some((p) => p.weight === undefined || p.weight <= 0)) return { missing: 'weight' };
  const positive = (n: number | undefined) => (n !== undefined && n > 0 ? n : undefined);
  const money = (n: number | undefined) => (n !== undefined && n >= 0 && Math.abs(Math.round(n * 100) - n * 100) < 1e-6 ? n : undefined);
  return {
    request: {
      from,
      to,
      places: places.map((p) => ({ weight: p.weight!, length: positive(p.length), width: positive(p.width), height: positive(p.height) })),
      assessedCost: money(numberOf(values.cost.assessedCost)),
      codCost: money(numberOf(values.cost.codCost)),
    },
  };
}

/** One row of the price table. */
export interface QuoteRow {
  providerKey: string;
  tariffId: number;
  tariffName: string;
  deliveryType: 1 | 2;
  pickupType: 1 | 2;
  price: number;
  daysMin: number;
  daysMax: number;
}

/** The calculator's answer as table rows, cheapest first, then fastest. */
export function quoteRows(result: CalculatorResult): QuoteRow[] {
  const rows: QuoteRow[] = [];
  for (const [deliveryType, groups] of [[1, result.deliveryToDoor], [2, result.deliveryToPoint]] as const) {
    for (const group of groups) {
      for (const t of group.tariffs) {
        rows.push({
          providerKey: group.providerKey,
          tariffId: t.tariffId,
          tariffName: t.tariffName,
          deliveryType,
          pickupType: t.pickupTypes[0] === 2 ? 2 : 1,
          price: t.deliveryCost,
          daysMin: t.daysMin,
          daysMax: t.daysMax,
        });
      }
    }
  }
  return rows.sort((a, b) => a.price - b.price || a.daysMax - b.daysMax || a.tariffId - b.tariffId);
}

import type { DeliveryInterval, IntervalsRequestInput, IntervalsResult } from '../../shared/schemas/calculator';
import type { OrderFormValues } from './form-values';

/** The intervals request for the chosen service and tariff: where from and to, and the COD (some services refuse COD). */
export function intervalsRequestOf(values: OrderFormValues): IntervalsRequestInput | undefined {
  const { providerKey, tariffId } = values.order;
  if (!providerKey || !/^\d+$/.test(tariffId)) return undefined;
  const to = values.recipientAddressMode === 'line' ? values.recipient.addressString.trim() : values.recipient.city.trim();
  const from = values.sender.city.trim();
  return {
    providerKeys: [providerKey],
    tariffIds: [Number(tariffId)],
    ...(from ? { from: { city: from } } : {}),
    ...(to ? { to: values.recipientAddressMode === 'line' ? { addressString: to } : { city: to } } : {}),
  };
}

/** The chosen tariff's intervals from the answer; undefined when the service gave none for it. */
export function tariffIntervals(result: IntervalsResult, providerKey: string, tariffId: string): DeliveryInterval[] | undefined {
  return result.deliveryToDoor.find((g) => g.providerKey === providerKey)?.tariffs.find((x) => String(x.tariffId) === tariffId)?.toIntervals;
}
